// The Billing area: the plans from the server's table (`GET /plans`), the current one, and the owner's choice.
import { api } from './api.js';
import { $, el } from './dom.js';
import { confirmDanger, showBanner } from './feedback.js';
import { formatLimit, formatNumber, SERVICE_LABELS, SERVICES, tierLabel, withArticle } from './format.js';
import { can, state } from './state.js';
import { renderAccount } from './views.js';

/** What each plan is for: the page's prose; the names, prices and quotas are the server's. */
const PLAN_BLURBS = {
  free: 'For trying Waymark out and small projects.',
  pro: 'For production apps with real traffic.',
  enterprise: 'Custom quotas and service-level terms, arranged with your Waymark operator.',
};

/** Whether the page offers plan changes: to owners, and not on an Enterprise plan (the operator's to set). */
const mayChoosePlan = () => can('plan') && state.session.organization.tier !== 'enterprise';

export function renderBilling() {
  const current = state.session.organization.tier;
  const note = $('#plan-note');
  if (current === 'enterprise') {
    note.textContent = 'Your organization is on an Enterprise plan: your Waymark operator sets it and its quotas. Ask them to change it.';
  } else if (!can('plan')) {
    note.textContent = `Only an owner of the organization can change its plan; you are ${withArticle(state.session.user.role)}.`;
  } else {
    note.textContent = '';
  }
  note.hidden = note.textContent === '';
  $('#plans').replaceChildren(...state.plans.map((plan) => planCard(plan, current)));
  const quotas = state.session.organization.quotas;
  $('#current-quotas').replaceChildren(
    ...SERVICES.flatMap((s) => [
      el('dt', { text: SERVICE_LABELS[s] }),
      el('dd', { 'data-service': s, text: `${formatLimit(quotas[s])} per month` }),
    ]),
  );
}

function planAction(plan, current) {
  if (plan.tier === current) return el('p', { class: 'plan-current', text: 'Your current plan' });
  if (plan.tier === 'enterprise') {
    return el(
      'p',
      { class: 'plan-contact' },
      el('strong', { text: 'Contact us' }),
      ' — Enterprise plans are not self-serve; ask your Waymark operator.',
    );
  }
  if (!mayChoosePlan()) return '';
  const button = el('button', {
    type: 'button',
    class: `button ${plan.tier === 'pro' ? 'primary' : 'secondary'}`,
    text: `Switch to ${plan.label}`,
  });
  button.addEventListener('click', () => confirmPlanChange(plan, current));
  return button;
}

/** The price of a plan in words. */
const priceOf = (plan) =>
  plan.monthlyPriceUsd === null ? 'custom pricing' : plan.monthlyPriceUsd === 0 ? 'free' : `$${plan.monthlyPriceUsd} per month`;

/** A plan change costs money or quota at once: the dialog says what changes, and the change waits for a second click. */
function confirmPlanChange(plan, current) {
  const from = state.plans.find((p) => p.tier === current);
  const quotas = SERVICES.map((s) => `${formatNumber(plan.quotas[s])} ${SERVICE_LABELS[s].toLowerCase()}`).join(', ');
  confirmDanger(
    {
      title: `Switch to ${plan.label}?`,
      message: [
        `Your organization moves from ${from?.label ?? tierLabel(current)} (${from ? priceOf(from) : 'its plan'}) to ${plan.label} (${priceOf(plan)}) now. `,
        `Its monthly quotas become ${quotas} requests, for this month's usage too.`,
      ],
      confirmLabel: `Switch to ${plan.label}`,
      tone: 'primary',
    },
    () => changeTier(plan.tier),
  );
}

function planCard(plan, current) {
  // Enterprise quotas are set per organization by the operator: the table has none to show.
  const quotaItems =
    plan.tier === 'enterprise'
      ? [el('li', { text: 'Custom quotas for maps, geocoding and routing' }), el('li', { text: 'Service-level terms' })]
      : SERVICES.map((s) =>
          el('li', {}, el('strong', { text: formatNumber(plan.quotas[s]) }), ` ${SERVICE_LABELS[s].toLowerCase()} requests / month`),
        );
  const [price, period] = plan.monthlyPriceUsd === null ? ['Custom', 'pricing'] : [`$${plan.monthlyPriceUsd}`, 'per month'];
  return el(
    'article',
    {
      class: `card plan${plan.tier === current ? ' current' : ''}`,
      'data-tier': plan.tier,
      'aria-current': plan.tier === current ? 'true' : false,
    },
    el('h2', { text: plan.label }),
    el('p', { class: 'price' }, el('span', { class: 'amount', text: price }), ` ${period}`),
    el('p', { class: 'muted', text: PLAN_BLURBS[plan.tier] ?? '' }),
    el('ul', { class: 'plan-quotas' }, ...quotaItems),
    planAction(plan, current),
  );
}

/** Run by the confirmation dialog (which reports an API error in the banner). */
async function changeTier(tier) {
  const { organization } = await api('PUT', '/billing', { tier });
  state.session.organization = organization;
  renderAccount();
  renderBilling();
  showBanner(`You are now on the ${tierLabel(tier)} plan. Your new quotas apply immediately.`, 'success');
}
