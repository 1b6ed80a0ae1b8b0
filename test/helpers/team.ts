/** An organization's team through the dashboard API: calls as a member, and joining through invitation links. */
import { PASSWORD, type Account, type TestServer } from './server.js';

export { PASSWORD };

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A response's status and JSON body ({} for none). */
export const answerOf = async (res: Response): Promise<Answer> => ({
  status: res.status,
  body: (await res.json().catch(() => ({}))) as Record<string, unknown>,
});

/** Calls the dashboard API as the account (null: signed out). */
export const as = async (server: TestServer, account: Account | null, method: string, path: string, body?: unknown): Promise<Answer> =>
  answerOf(await server.dashboard(account as Account, method, path, body));

/** The account a sign-up or sign-in answer starts. */
export async function accountOf(res: Response, email: string): Promise<Account> {
  const body = (await res.json()) as { csrfToken: string; organization: { id: string } };
  if (res.status !== 200 && res.status !== 201) throw new Error(`signing in failed: ${res.status} ${JSON.stringify(body)}`);
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]!, csrfToken: body.csrfToken, orgId: body.organization.id, email };
}

/** Makes an invitation as `inviter` for `role` (absent: the default); its token. */
export async function invitationToken(server: TestServer, inviter: Account, role?: string): Promise<string> {
  const invited = await as(server, inviter, 'POST', '/invitations', role === undefined ? {} : { role });
  if (invited.status !== 201) throw new Error(`invitation failed: ${JSON.stringify(invited)}`);
  return invited.body.token as string;
}

/** Signs up through an invitation link. */
export const signUpWith = (server: TestServer, token: string, email: string) =>
  server.dashboard(null as unknown as Account, 'POST', '/signup', { email, password: PASSWORD, invitation: token });

/** Invites someone with `role` (absent: the default) and signs them up through the link. */
export async function join(server: TestServer, inviter: Account, email: string, role?: string): Promise<Account> {
  return accountOf(await signUpWith(server, await invitationToken(server, inviter, role), email), email);
}

/** Signs in again, starting another session of the same user. */
export const signIn = async (server: TestServer, email: string, password = PASSWORD) =>
  server.dashboard(null as unknown as Account, 'POST', '/signin', { email, password });

/** The member's user id and role, as `/me` gives them. */
export async function whoIs(server: TestServer, account: Account): Promise<{ id: string; role: string }> {
  return (await as(server, account, 'GET', '/me')).body.user as { id: string; role: string };
}
