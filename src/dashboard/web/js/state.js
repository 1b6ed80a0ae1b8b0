// What the page remembers between events, in one place; nothing here outlives the tab.

export const state = {
  /** The signed-in session: `{ user, organization, csrfToken }`, or null. */
  session: null,
  /** The plan table as the server has it (`GET /plans`: tier, label, monthly price, quotas); fetched once. */
  plans: null,
  /** The invitation token the join form accepts (from a `#invitation=…` link), or null. */
  pendingInvitation: null,
  /** The password-reset token the reset form uses (from a `#reset=…` link), or null. */
  pendingReset: null,
  /** The view on screen. */
  shownView: null,
  /** What the confirmation dialog runs when its danger button is chosen. */
  confirmedAction: null,
  /** Who made each key, by member id (filled for admins and owners, who see every key). */
  keyMakers: new Map(),
  /** The key the edit or the roll dialog is open for (both are modal: one at a time). */
  dialogKey: null,
  /** Values of the keys created in this tab, by key id: only in this page's memory, for the playground. */
  createdKeyValues: new Map(),
  /** The playground's map, made on first use, and the style URL it shows. */
  map: null,
  shownStyleUrl: '',
  /** The last key the live maps API accepted in the playground. */
  acceptedKey: '',
  /** The playground's key picker: the member's usable Maps keys (newest first), and the key id (or 'paste') picked. */
  playgroundKeys: [],
  playgroundPick: null,
};

/** What the signed-in member's role allows (`plan`, `roles`, `invitations`, `members`, `allKeys`), as the server says. */
export const can = (power) => Boolean(state.session?.user.powers?.[power]);
