/** Signing up (a new organization, or joining one with an invitation), in and out, and who is signed in. */
import { checkCredentials, signUp } from '../../control-plane/accounts.js';
import { acceptInvitation } from '../../control-plane/invitations.js';
import type { User } from '../../control-plane/types.js';
import { ApiError } from '../../http/errors.js';
import { empty, json } from '../../http/reply.js';
import type { Router } from '../../http/router.js';
import { accountCall, jsonBody, orgOf, publicRoutes, sessionRoutes, type DashboardDeps } from './routes.js';
import { throttledSignUp } from './sign-up-throttle.js';
import { orgView, userView } from './views.js';

export function registerAccounts(router: Router, { store, sessions, now, clientAddressOf }: DashboardDeps): void {
  const signedIn = async (user: User, status: number) => {
    const { setCookie, csrfToken } = await sessions.start(user);
    const org = await orgOf(store, user.orgId);
    return json(status, { user: userView(user), organization: orgView(org), csrfToken }, { 'Set-Cookie': setCookie });
  };

  publicRoutes(router, {
    // Sign-up makes a new organization, or, with an invitation, joins the one that made it.
    'POST /signup': async (req) => {
      const body = jsonBody(req);
      if (body.invitation !== undefined && body.organization !== undefined) {
        throw new ApiError(400, 'an invitation joins the organization that made it: send either invitation or organization, not both');
      }
      // A new organization (a fresh Free quota) is counted against the client's address; joining one is not.
      const { user } = await accountCall(() =>
        body.invitation === undefined
          ? throttledSignUp(store, clientAddressOf(req), now(), () =>
              signUp(store, { email: body.email, password: body.password, organization: body.organization }),
            )
          : acceptInvitation(store, { invitation: body.invitation, email: body.email, password: body.password }, now()),
      );
      return signedIn(user, 201);
    },

    'POST /signin': async (req) => {
      const body = jsonBody(req);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const address = clientAddressOf(req);
      // Counted as a failure before the password is checked, so a burst is limited like a sequence.
      const attempt = await store.signIns.begin(email, address, now());
      if (!attempt.allowed) {
        const wait = attempt.retryAfterSeconds;
        throw new ApiError(429, `too many failed sign-in attempts; try again in ${wait} seconds`, { 'Retry-After': String(wait) });
      }
      const user = await checkCredentials(store, body.email, body.password);
      if (!user) throw new ApiError(401, 'wrong email or password');
      await store.signIns.succeeded(email, address, now());
      return signedIn(user, 200);
    },
  });

  sessionRoutes(router, sessions, {
    'POST /signout': async (req) => empty(204, { 'Set-Cookie': await sessions.end(req) }),

    'GET /me': async (_req, { user, csrfToken }) =>
      json(200, { user: userView(user), organization: orgView(await orgOf(store, user.orgId)), csrfToken }),
  });
}
