import { api, VENUE_BOOKING_NODE } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { requireFunction } from '../../platform/permissions';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import * as venue from './venue.service';

/**
 * Venue booking (issue 16). Login role types are checked before the input is read, and booking, moving and cancelling
 * need the 新增 function of 场地预约 (administrators hold every function); ownership is the service's (another
 * enterprise's booking is 404). Registered in the business scope (418 for an incomplete enterprise); the public
 * availability is registered apart (`venuePublicRoutes`), outside it.
 */
const READ = ['M', 'D', 'U'];
const CHANGE = ['M', 'U'];

export function venueRoutes(app: FastifyInstance, db: Db, now: () => Date) {
  const books = (auth: AuthContext) =>
    requireFunction(db, { id: auth.user.id, loginRoleType: auth.user.loginRoleType }, VENUE_BOOKING_NODE, 'add');
  route(app, api.venueRooms, async () => venue.rooms(db), { roles: READ });
  route(app, api.venueBookings, async ({ auth, body }) => venue.list(db, venue.venueCallerOf(auth), body, now()), {
    roles: READ,
  });
  route(app, api.venueHistory, async ({ auth, query }) => venue.history(db, venue.venueCallerOf(auth), query.id), {
    roles: READ,
  });
  route(app, api.venueBook, async ({ auth, body }) => venue.book(db, venue.venueCallerOf(auth), body, now()), {
    roles: CHANGE,
    guard: books,
    message: '预约成功',
  });
  route(app, api.venueCancel, async ({ auth, body }) => venue.cancel(db, venue.venueCallerOf(auth), body, now()), {
    roles: CHANGE,
    guard: books,
    message: '预约已取消',
  });
  route(app, api.venueMove, async ({ auth, body }) => venue.move(db, venue.venueCallerOf(auth), body, now()), {
    roles: CHANGE,
    guard: books,
    message: '预约已改期',
  });
}

/** The public availability (no sign-in; no booker, enterprise or subject in the answer). */
export function venuePublicRoutes(app: FastifyInstance, db: Db) {
  route(app, api.venueAvailability, async ({ query }) => venue.availability(db, query.from, query.days));
}
