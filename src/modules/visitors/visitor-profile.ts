import { BUILTIN_FIELDS, type PreChatField } from '../sites/widget-settings';
import type { WidgetVisitorRecord } from './visitor-record';
import type { VisitorProfileDto } from '../../common/dto/widget-visitor.dto';

type Builtin = (typeof BUILTIN_FIELDS)[number];
const isBuiltin = (key: string): key is Builtin =>
  (BUILTIN_FIELDS as readonly string[]).includes(key);

/** A pre-chat field's current value: built-in ones are visitor columns, the rest custom fields. */
function valueOf(visitor: WidgetVisitorRecord, field: PreChatField): string | null | undefined {
  return field.builtin && isBuiltin(field.key)
    ? visitor[field.key]
    : visitor.customFields[field.key];
}

/** The required pre-chat fields the visitor has not filled. */
export function missingFields(
  visitor: WidgetVisitorRecord,
  fields: PreChatField[],
): PreChatField[] {
  return fields.filter((field) => field.required && !valueOf(visitor, field)?.trim());
}

/** The name a 422 gives a pre-chat field: built-in ones are body fields, the rest custom. */
export const errorField = (field: PreChatField): string =>
  field.builtin ? field.key : `custom_fields.${field.key}`;

/** `visitor_profile.account_login`: whether the visitor is logged in to a site owner's account. */
export interface AccountLoginState {
  identifier: string;
  verifiedAt: Date;
}

/** `visitor_profile` of the widget responses; `login` is the visitor's current account login. */
export function toVisitorProfile(
  visitor: WidgetVisitorRecord,
  fields: PreChatField[],
  login?: AccountLoginState,
): VisitorProfileDto {
  return {
    name: visitor.name ?? '',
    email: visitor.email ?? '',
    phone: visitor.phone ?? '',
    profile_complete: missingFields(visitor, fields).length === 0,
    pre_chat_submitted: visitor.preChatSubmitted,
    account_login: login
      ? {
          logged_in: true,
          identifier: login.identifier,
          verified_at: new Date(login.verifiedAt).toISOString(),
        }
      : { logged_in: false, identifier: null, verified_at: null },
  };
}
