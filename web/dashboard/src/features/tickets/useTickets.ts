import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { keys, type TicketFilters } from '../../api/queries';

export function useTickets(filters: TicketFilters) {
  return useQuery({
    queryKey: keys.ticketList(filters),
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(api.GET('/api/agent/tickets', { params: { query: { per_page: 100, ...filters } } })),
  });
}

export function useTicket(id: number) {
  return useQuery({
    queryKey: keys.ticket(id),
    queryFn: async () =>
      (await unwrap(api.GET('/api/agent/tickets/{ticket}', { params: { path: { ticket: id } } })))
        .data,
  });
}
