import { useMe } from '../../api/queries';

/** Whether the signed-in member may write the knowledge base (owners and admins). */
export function useCanEditKb(): boolean {
  const role = useMe().data?.user.role;
  return role === 'owner' || role === 'admin';
}
