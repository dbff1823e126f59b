import { Route, Routes } from 'react-router';
import { TicketDetail } from './TicketDetail';
import { TicketList } from './TicketList';

export default function TicketsPage() {
  return (
    <Routes>
      <Route index element={<TicketList />} />
      <Route path=":ticketId" element={<TicketDetail />} />
    </Routes>
  );
}
