// The Team area: the members, their roles (set by owners) and removal (by admins and owners), invitation links (made by admins
// and owners), and one's own password.
import { api } from './api.js';
import { $, el, emailText, fillTable, revokeButton, statusBadge } from './dom.js';
import { clearErrors, confirmDanger, endsSession, guarded, onSubmit, showBanner } from './feedback.js';
import { formatTime, ROLE_LABELS, ROLES, STATUS_LABELS, withArticle } from './format.js';
import { clearSecret, clearSecretOf, showSecret } from './secrets.js';
import { can, state } from './state.js';
import { showView } from './views.js';

export async function loadTeam() {
  const { role } = state.session.user;
  $('#team-role').replaceChildren(
    'You are ',
    el('strong', { text: withArticle(role) }),
    ` of ${state.session.organization.name}: `,
    can('roles')
      ? "you choose the plan and the members' roles, manage every key and the invitations, and remove members."
      : can('invitations')
        ? "you manage every key and the invitations, and remove admins and members. An owner chooses the plan and the members' roles."
        : 'you see the usage and manage the keys you created. Ask an admin or owner to invite someone.',
  );
  const invites = can('invitations');
  for (const part of ['#create-invitation-form', '#invitations-card']) $(part).hidden = !invites;
  if (!invites) clearSecret($('#new-invitation'));
  else fillInvitationRoles();
  await Promise.all([loadMembers(), invites ? loadInvitations() : null]);
}

/** The roles the member may give in an invitation: up to their own (the server refuses more). */
function fillInvitationRoles() {
  const select = $('#create-invitation-form select[name="role"]');
  const chosen = select.value || 'member';
  const grantable = ROLES.slice(ROLES.indexOf(state.session.user.role));
  select.replaceChildren(...grantable.map((role) => el('option', { value: role, selected: role === chosen }, ROLE_LABELS[role])));
  if (!grantable.includes(chosen)) select.value = 'member';
}

async function loadMembers() {
  const { members } = await api('GET', '/members');
  fillTable($('#members-table'), members.map(memberRow));
}

function roleBadge(role) {
  return el('span', { class: `role ${role}`, text: ROLE_LABELS[role] });
}

/** An owner's role menu for a member; a refused change (the last owner, say) is shown and undone. */
function roleSelect(member) {
  const select = el(
    'select',
    { class: 'role-select', 'aria-label': `Role of ${member.email}` },
    ...ROLES.map((role) => el('option', { value: role, selected: role === member.role }, ROLE_LABELS[role])),
  );
  select.addEventListener('change', async () => {
    const role = select.value;
    select.disabled = true;
    try {
      const { member: changed } = await api('PUT', `/members/${encodeURIComponent(member.id)}/role`, { role });
      member.role = changed.role;
      clearErrors();
      showBanner(`${changed.email} is now ${withArticle(changed.role)}.`, 'success');
      // One's own role changed: the page shows what the new role allows.
      if (changed.id === state.session.user.id) showView();
      else await loadMembers();
    } catch (e) {
      if (endsSession(e)) return;
      select.value = member.role;
      showBanner(e.message, 'error');
    } finally {
      select.disabled = false;
    }
  });
  return select;
}

/** Whether the signed-in member may remove `member`: admins and owners, up to their own role (the server decides). */
function mayRemove(member) {
  const { user } = state.session;
  return can('members') && member.id !== user.id && ROLES.indexOf(member.role) >= ROLES.indexOf(user.role);
}

function memberRow(member) {
  const you = member.id === state.session.user.id ? el('span', { class: 'muted', text: ' (you)' }) : '';
  const remove = el('button', { type: 'button', class: 'button danger small', 'aria-label': `Remove ${member.email}`, text: 'Remove' });
  remove.addEventListener('click', () => guarded(() => confirmRemoveMember(member)));
  return el(
    'tr',
    { 'data-member-id': member.id, 'data-role': member.role },
    el('td', { class: 'member-email' }, emailText(member.email), you),
    el('td', { class: 'member-role' }, can('roles') ? roleSelect(member) : roleBadge(member.role)),
    el('td', { class: 'time', text: formatTime(member.createdAt) }),
    el('td', { class: 'actions' }, mayRemove(member) ? remove : ''),
  );
}

/** Asks before removing a member, offering to revoke the active keys it created too (kept unless ticked). */
async function confirmRemoveMember(member) {
  const { keys } = await api('GET', '/keys');
  const theirs = keys.filter((key) => key.createdBy === member.id && key.status === 'active').length;
  const revokeKeys = el('input', { type: 'checkbox', name: 'revokeKeys' });
  const keysChoice = theirs
    ? [el('label', { class: 'check' }, revokeKeys, ` Also revoke the ${theirs === 1 ? 'key' : `${theirs} keys`} they created`)]
    : [];
  confirmDanger(
    {
      title: `Remove ${member.email}?`,
      message: [
        emailText(member.email),
        ' will be signed out at once and can no longer sign in; their pending invitation links stop working. ',
        theirs ? 'The keys they created keep working unless you revoke them here (or roll them later). ' : '',
        ...keysChoice,
      ],
      confirmLabel: 'Remove member',
    },
    async () => {
      const { revokedKeys } = await api('POST', `/members/${encodeURIComponent(member.id)}/remove`, { revokeKeys: revokeKeys.checked });
      const revoked = revokedKeys.length
        ? ` and ${revokedKeys.length === 1 ? 'the key' : `${revokedKeys.length} keys`} they created revoked`
        : '';
      showBanner(`${member.email} has been removed${revoked}.`, 'success');
      await loadTeam();
    },
  );
}

async function loadInvitations() {
  const { invitations } = await api('GET', '/invitations');
  fillTable($('#invitations-table'), invitations.map(invitationRow));
  $('#invitations-table').hidden = invitations.length === 0;
  $('#invitations-empty').hidden = invitations.length > 0;
}

function invitationStatusBadge(invitation) {
  const since = { accepted: invitation.acceptedAt, revoked: invitation.revokedAt }[invitation.status];
  return statusBadge(invitation.status, since ? `${STATUS_LABELS[invitation.status]} ${formatTime(since)} UTC` : null);
}

function invitationRow(invitation) {
  return el(
    'tr',
    { 'data-invitation-id': invitation.id, 'data-status': invitation.status },
    el('td', {}, el('code', { class: 'hint', text: invitation.hint })),
    el('td', { class: 'invitation-role' }, roleBadge(invitation.role)),
    el('td', { class: 'invitation-status' }, invitationStatusBadge(invitation)),
    el('td', { class: 'time', text: formatTime(invitation.createdAt) }),
    el('td', { class: 'time', text: formatTime(invitation.expiresAt) }),
    el('td', { class: 'created-by' }, invitation.createdBy ? emailText(invitation.createdBy) : '—'),
    el('td', { class: 'accepted-by' }, invitation.acceptedBy ? emailText(invitation.acceptedBy) : '—'),
    el(
      'td',
      { class: 'actions' },
      invitation.status === 'pending'
        ? revokeButton(`Revoke invitation ${invitation.hint}`, () => confirmRevokeInvitation(invitation))
        : '',
    ),
  );
}

function confirmRevokeInvitation(invitation) {
  confirmDanger(
    {
      title: 'Revoke this invitation link?',
      message: [
        'The link ',
        el('code', { text: invitation.hint }),
        ' will stop working at once: nobody can join your organization with it. This cannot be undone.',
      ],
      confirmLabel: 'Revoke invitation',
    },
    async () => {
      await api('POST', `/invitations/${encodeURIComponent(invitation.id)}/revoke`);
      clearSecretOf(invitation.id);
      showBanner('The invitation link has been revoked.', 'success');
      await loadInvitations();
    },
  );
}

export function setUpTeam() {
  onSubmit($('#password-form'), async (form) => {
    await api('PUT', '/password', { currentPassword: form.currentPassword.value, newPassword: form.newPassword.value });
    form.reset();
    showBanner('Your password has been changed; your other sessions have been signed out.', 'success');
  });
  onSubmit($('#create-invitation-form'), async (form) => {
    const { invitation, url } = await api('POST', '/invitations', { role: form.elements.role.value });
    $('#new-invitation-expires').textContent = formatTime(invitation.expiresAt);
    showSecret($('#new-invitation'), url, invitation.id);
    await loadInvitations();
  });
}
