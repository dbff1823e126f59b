import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { LIST_PAGE_SIZE, type TicketFilters } from '../../api/queries';
import { keys } from '../../api/keys';

export function useTickets(filters: TicketFilters) {
  return useQuery({
    queryKey: keys.tickets.list(filters),
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/tickets', {
          params: { query: { per_page: LIST_PAGE_SIZE, ...filters } },
        }),
      ),
  });
}

export function useTicket(id: number) {
  return useQuery({
    queryKey: keys.tickets.one(id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/agent/tickets/{ticket}', { params: { path: { ticket: id } } })))
        .data,
  });
}
