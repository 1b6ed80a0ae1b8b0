/** Signing up (a new organization, or joining one with an invitation), in and out, and who is signed in. */
import { checkCredentials, signUp } from '../../control-plane/accounts.js';
import { acceptInvitation } from '../../control-plane/invitations.js';
import { resetPassword, setPassword } from '../../control-plane/password-changes.js';
import type { User } from '../../control-plane/types.js';
import { ApiError } from '../../http/errors.js';
import { empty, json } from '../../http/reply.js';
import type { Request } from '../../http/request.js';
import type { Router } from '../../http/router.js';
import { record } from '../../control-plane/audit.js';
import { accountCall, auditOf, jsonBody, orgOf, publicRoutes, sessionRoutes, type DashboardDeps } from './routes.js';
import { throttledSignUp } from './sign-up-throttle.js';
import { orgView, userView } from './views.js';

export function registerAccounts(router: Router, deps: DashboardDeps): void {
  const { store, sessions, now, clientAddressOf } = deps;
  const signedIn = async (user: User, status: number) => {
    const { setCookie, csrfToken } = await sessions.start(user);
    const org = await orgOf(store, user.orgId);
    return json(status, { user: userView(user), organization: orgView(org), csrfToken }, { 'Set-Cookie': setCookie });
  };

  /**
   * Checks a password under the sign-in throttle: counted as a failure before it is checked, so a
   * burst is limited like a sequence, and given back when it proves right.
   */
  const throttled = async (req: Request, email: string, check: () => Promise<User | null>): Promise<User | null> => {
    const address = clientAddressOf(req);
    const attempt = await store.signIns.begin(email, address, now());
    if (!attempt.allowed) {
      const wait = attempt.retryAfterSeconds;
      throw new ApiError(429, `too many failed sign-in attempts; try again in ${wait} seconds`, { 'Retry-After': String(wait) });
    }
    const user = await check();
    if (user) await store.signIns.succeeded(email, address, now());
    return user;
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
      if (body.invitation !== undefined) {
        await record(auditOf(deps, req, user), { action: 'member.joined', target: user.id, after: { email: user.email, role: user.role } });
      }
      return signedIn(user, 201);
    },

    'POST /signin': async (req) => {
      const body = jsonBody(req);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const user = await throttled(req, email, () => checkCredentials(store, body.email, body.password));
      if (!user) throw new ApiError(401, 'wrong email or password');
      return signedIn(user, 200);
    },

    // An operator's one-time link (`waymark user reset-password`): a new password, and signed in.
    'POST /password/reset': async (req) => {
      const body = jsonBody(req);
      return signedIn(await accountCall(() => resetPassword(store, body.token, body.password, now())), 200);
    },
  });

  sessionRoutes(router, sessions, {
    'POST /signout': async (req) => empty(204, { 'Set-Cookie': await sessions.end(req) }),

    'GET /me': async (_req, { user, csrfToken }) =>
      json(200, { user: userView(user), organization: orgView(await orgOf(store, user.orgId)), csrfToken }),

    // The user's own password: the current one first (throttled as sign-ins are); ends the other sessions.
    'PUT /password': async (req, { user, hash }) => {
      const body = jsonBody(req);
      const verified = await throttled(req, user.email, () => checkCredentials(store, user.email, body.currentPassword));
      if (!verified) throw new ApiError(403, 'the current password is wrong');
      if (!(await accountCall(() => setPassword(store, user.id, body.newPassword, hash))))
        throw new ApiError(401, 'sign in first: your account no longer exists');
      return empty(204);
    },
  });
}
