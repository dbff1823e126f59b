import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { allPages } from '../../../api/queries';
import { keys } from '../../../api/keys';

/** The invitations not yet accepted (owners and admins). */
export function useInvitations() {
  return useQuery({
    queryKey: keys.team.invitations,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/team/invitations', { params: { query } }))),
  });
}
