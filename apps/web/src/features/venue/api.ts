import type { ApiBody } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';

/**
 * The venue calls (contracts venue-api.ts). The public availability sends no token: a visitor's (or an expired)
 * session never gets in its way. Changes are `silent`: the pages show the server's message beside the form (a 409
 * 该场地在所选时段已被预约 among them) rather than in the global prompt.
 */
export const VENUE_KEY = ['venue'] as const;

export const roomsQuery = queryOptions({
  queryKey: [...VENUE_KEY, 'rooms'],
  queryFn: () => call('venueRooms'),
  staleTime: 60_000,
});

export const availabilityQuery = (from: string, days: number) =>
  queryOptions({
    queryKey: [...VENUE_KEY, 'availability', from, days],
    queryFn: () => call('venueAvailability', { params: { from, days }, isToken: false }),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });

export const bookingsQuery = (body: ApiBody<'venueBookings'>) =>
  queryOptions({
    queryKey: [...VENUE_KEY, 'bookings', body],
    queryFn: () => call('venueBookings', { data: body }),
    placeholderData: keepPreviousData,
  });

export const historyQuery = (id: string) =>
  queryOptions({
    queryKey: [...VENUE_KEY, 'history', id],
    queryFn: () => call('venueHistory', { params: { id } }),
  });

export const bookVenue = (data: ApiBody<'venueBook'>) => call('venueBook', { data, silent: true });
export const cancelBooking = (data: ApiBody<'venueCancel'>) => call('venueCancel', { data, silent: true });
export const moveBooking = (data: ApiBody<'venueMove'>) => call('venueMove', { data, silent: true });
