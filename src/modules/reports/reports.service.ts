import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { toCsv } from '../../common/http/csv';
import { RATING_COMMENTS_MAX } from './reports.dto';
import { daysBetween, MAX_REPORT_DAYS, reportRange } from './report-range';
import { type ReportFilter, ReportsRepository, type TimesRow } from './reports.repository';

export interface ReportQuery {
  from: string;
  to: string;
  site_id?: number;
  agent_id?: number;
}

const count = Number;
const round = (value: number | null, digits = 1) =>
  value === null ? null : Math.round(Number(value) * 10 ** digits) / 10 ** digits;
const id = (key: string | null) => (key === null ? null : Number(key));

function volume(row: Pick<TimesRow, 'conversations' | 'missed'>) {
  const conversations = count(row.conversations);
  const missed = count(row.missed);
  return {
    conversations,
    missed,
    missed_rate: conversations === 0 ? null : round(missed / conversations, 4),
  };
}

function times(row: TimesRow) {
  return {
    first_response: {
      count: count(row.first_response_count),
      median_seconds: round(row.first_response_median),
      p90_seconds: round(row.first_response_p90),
    },
    resolution: {
      count: count(row.resolution_count),
      median_seconds: round(row.resolution_median),
      p90_seconds: round(row.resolution_p90),
    },
  };
}

function csat(row: TimesRow) {
  return {
    count: count(row.rating_count),
    average: round(row.rating_average, 2),
    distribution: {
      '1': count(row.rating_1),
      '2': count(row.rating_2),
      '3': count(row.rating_3),
      '4': count(row.rating_4),
      '5': count(row.rating_5),
    },
  };
}

const EMPTY: TimesRow = {
  scope: 'all',
  key: null,
  conversations: '0',
  missed: '0',
  first_response_count: '0',
  first_response_median: null,
  first_response_p90: null,
  resolution_count: '0',
  resolution_median: null,
  resolution_p90: null,
  rating_count: '0',
  rating_average: null,
  rating_1: '0',
  rating_2: '0',
  rating_3: '0',
  rating_4: '0',
  rating_5: '0',
};

/** The dashboard's reports over conversations started in a range of days. */
@Injectable()
export class ReportsService {
  constructor(private readonly repository: ReportsRepository) {}

  async conversations(organizationId: string, query: ReportQuery) {
    const { range, days: dates, filter } = await this.resolve(organizationId, query);
    const [days, groups] = await Promise.all([
      this.repository.perDay(organizationId, filter),
      this.repository.grouped(organizationId, filter),
    ]);
    const byDay = new Map(days.map((row) => [row.day, row]));
    return {
      ...range,
      totals: volume(this.total(groups)),
      days: dates.map((date) => ({
        date,
        conversations: count(byDay.get(date)?.conversations ?? 0),
        missed: count(byDay.get(date)?.missed ?? 0),
      })),
      ...this.breakdown(groups, volume),
    };
  }

  async responseTimes(organizationId: string, query: ReportQuery) {
    const { range, groups } = await this.grouped(organizationId, query);
    return { ...range, totals: times(this.total(groups)), ...this.breakdown(groups, times) };
  }

  async csat(organizationId: string, query: ReportQuery) {
    const { range, filter } = await this.resolve(organizationId, query);
    const [groups, comments] = await Promise.all([
      this.repository.grouped(organizationId, filter),
      this.repository.ratingComments(organizationId, filter, RATING_COMMENTS_MAX),
    ]);
    return {
      ...range,
      totals: csat(this.total(groups)),
      ...this.breakdown(groups, csat),
      comments: comments.map((row) => ({
        conversation_id: Number(row.conversation_id),
        rating: row.rating,
        comment: row.comment,
        reviewed_at: new Date(row.reviewed_at).toISOString(),
        agent_id: id(row.agent_id),
        site_id: Number(row.site_id),
      })),
    };
  }

  async conversationsCsv(organizationId: string, query: ReportQuery): Promise<string> {
    const report = await this.conversations(organizationId, query);
    return toCsv(
      ['date', 'conversations', 'missed'],
      report.days.map((day) => [day.date, day.conversations, day.missed]),
    );
  }

  /** One line for the whole range, then one per agent and per site. */
  async responseTimesCsv(organizationId: string, query: ReportQuery): Promise<string> {
    const { groups } = await this.grouped(organizationId, query);
    return toCsv(
      [
        'scope',
        'id',
        'conversations',
        'missed',
        'missed_rate',
        'first_response_count',
        'first_response_median_seconds',
        'first_response_p90_seconds',
        'resolution_count',
        'resolution_median_seconds',
        'resolution_p90_seconds',
      ],
      this.lines(groups).map((row) => {
        const v = volume(row);
        const t = times(row);
        return [
          row.scope,
          row.key,
          v.conversations,
          v.missed,
          v.missed_rate,
          t.first_response.count,
          t.first_response.median_seconds,
          t.first_response.p90_seconds,
          t.resolution.count,
          t.resolution.median_seconds,
          t.resolution.p90_seconds,
        ];
      }),
    );
  }

  async csatCsv(organizationId: string, query: ReportQuery): Promise<string> {
    const { groups } = await this.grouped(organizationId, query);
    return toCsv(
      [
        'scope',
        'id',
        'count',
        'average',
        'rating_1',
        'rating_2',
        'rating_3',
        'rating_4',
        'rating_5',
      ],
      this.lines(groups).map((row) => {
        const c = csat(row);
        const d = c.distribution;
        return [row.scope, row.key, c.count, c.average, d['1'], d['2'], d['3'], d['4'], d['5']];
      }),
    );
  }

  private async grouped(organizationId: string, query: ReportQuery) {
    const { range, filter } = await this.resolve(organizationId, query);
    return { range, groups: await this.repository.grouped(organizationId, filter) };
  }

  private total(groups: TimesRow[]): TimesRow {
    return groups.find((row) => row.scope === 'all') ?? EMPTY;
  }

  private lines(groups: TimesRow[]): TimesRow[] {
    return [this.total(groups), ...groups.filter((row) => row.scope !== 'all')];
  }

  private breakdown<T>(groups: TimesRow[], figures: (row: TimesRow) => T) {
    const of = (scope: 'agent' | 'site') =>
      groups
        .filter((row) => row.scope === scope)
        .map((row) => ({ id: id(row.key), ...figures(row) }));
    return { per_agent: of('agent'), per_site: of('site') };
  }

  private async resolve(organizationId: string, query: ReportQuery) {
    const days = daysBetween(query.from, query.to);
    if (days < 1)
      throw AppError.invalid(
        'to',
        'The to date must not be before the from date.',
        'report_range_invalid',
      );
    if (days > MAX_REPORT_DAYS) {
      throw AppError.invalid(
        'to',
        `A report covers at most ${MAX_REPORT_DAYS} days.`,
        'report_range_too_long',
      );
    }
    const siteId = query.site_id === undefined ? undefined : String(query.site_id);
    const timezone = await this.repository.timezone(organizationId, siteId);
    if (!timezone) {
      throw AppError.invalid(
        'site_id',
        'The selected site_id is not a site of this organization.',
        'site_not_in_organization',
      );
    }
    const { start, end, days: list } = reportRange(timezone, query.from, query.to);
    const filter: ReportFilter = {
      start,
      end,
      timezone,
      siteId,
      agentId: query.agent_id === undefined ? undefined : String(query.agent_id),
    };
    return { range: { timezone, from: query.from, to: query.to }, days: list, filter };
  }
}
