// The sandbox dashboard. It reads a page of the view from /__sandbox/dashboard (the newest invoices of the state
// chosen, or those found by number or business reference), reads it again whenever /__sandbox/events says the state
// changed, and acts only through the admin and service routes the CLI uses, with
// same-origin JSON requests. Text from invoices is only ever set as textContent, never parsed as HTML.

/** The six groups of the statistics, in the order the page lists them. */
const groups = [
  ['allInvoices', 'All'],
  ['paidInvoices', 'Paid'],
  ['unpaidInvoices', 'Unpaid'],
  ['expiredInvoices', 'Expired'],
  ['refundedInvoices', 'Refunded'],
  ['canceledInvoices', 'Canceled'],
];
const stateNames = { UNPAID: 'Unpaid', PAID: 'Paid', EXPIRED: 'Expired', REFUNDED: 'Refunded', CANCELED: 'Canceled' };
const groupOfState = {
  UNPAID: 'unpaidInvoices',
  PAID: 'paidInvoices',
  EXPIRED: 'expiredInvoices',
  REFUNDED: 'refundedInvoices',
  CANCELED: 'canceledInvoices',
};
/** Invoices shown at first, and added by "Show more". */
const pageSize = 50;

const money = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** An amount as the page shows it, beside the merchant's currency when the profile names one. */
const amountText = (amount) => (view?.currency ? `${money.format(amount)} ${view.currency}` : money.format(amount));
const $ = (selector, root = document) => root.querySelector(selector);

/** The last view read and the query it answered, how many invoices are asked for, and each shown card. */
let view;
let viewQuery;
let shown = pageSize;
const cards = new Map();

/** The clocks of the zones the page has shown times in: the merchant's, as the view names it. */
const clocks = new Map();

/**
 * An instant on the merchant's clock, the zone the view names (the profile's, as the workbook download shows it):
 * "2026-11-24T21:30:05.000Z" -> "2026-11-24 23:30 Africa/Cairo".
 */
function formatTime(iso) {
  if (!iso) return '';
  const zone = view?.timeZone ?? 'UTC';
  let clock = clocks.get(zone);
  if (!clock) {
    const fields = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' };
    clock = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', ...fields });
    clocks.set(zone, clock);
  }
  const part = Object.fromEntries(clock.formatToParts(new Date(iso)).map(({ type, value }) => [type, value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute} ${zone}`;
}

/** Says what happened, in the live region that screen readers announce. */
function announce(text, failed = false) {
  const status = $('#status');
  status.textContent = text;
  status.dataset.kind = failed ? 'error' : 'done';
}

/** A same-origin JSON request; a refusal throws an Error with the sandbox's message and the fields it names. */
async function request(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const fields = (data?.errors ?? []).map((issue) => `${issue.field} ${issue.message}`).join('; ');
    throw new Error([data?.message ?? `The sandbox answered ${response.status}.`, fields].filter(Boolean).join(' '));
  }
  return data;
}

/** Reads the view, one read at a time: changes that come during a read make one more. */
let reading;
let readAgain = false;
function refresh() {
  if (reading) {
    readAgain = true;
    return reading;
  }
  reading = (async () => {
    try {
      do {
        readAgain = false;
        const query = currentQuery();
        render(await request('GET', `/__sandbox/dashboard?${query}`), query);
      } while (readAgain);
    } catch (error) {
      announce(`Could not read the sandbox: ${error.message}`, true);
    } finally {
      reading = undefined;
    }
  })();
  return reading;
}

/** Runs an action, says how it went, and shows the state it left. */
async function act(work) {
  try {
    announce(await work());
  } catch (error) {
    announce(error.message, true);
  }
  await refresh();
}

/** What the page asks the sandbox for: the newest `shown` invoices of the state chosen, or of the search. */
function currentQuery() {
  const query = new URLSearchParams({ limit: String(shown) });
  const status = $('#filter').value;
  if (status) query.set('status', status);
  const search = $('#search').value.trim();
  if (search) query.set('search', search);
  return query.toString();
}

function render(next, query) {
  // The download holds the invoices of the state chosen or of the search, all of them rather than a page.
  const filter = new URLSearchParams(query);
  filter.delete('limit');
  $('#download').href = `/__sandbox/ui/invoices.xlsx${filter.size > 0 ? `?${filter}` : ''}`;
  // New invoices are announced only when the page asked the same question as before.
  const before = view && query === viewQuery && new Set(view.invoices.map((invoice) => invoice.invoiceNumber));
  view = next;
  viewQuery = query;
  const now = $('#now');
  now.textContent = formatTime(next.now);
  now.dateTime = next.now;
  renderStatistics(next.statistics);
  renderInvoices();
  const added = before ? next.invoices.filter((invoice) => !before.has(invoice.invoiceNumber)) : [];
  if (added.length > 0) {
    const numbers = added.map((invoice) => invoice.invoiceNumber).join(', ');
    announce(added.length === 1 ? `New invoice ${numbers}.` : `${added.length} new invoices: ${numbers}.`);
  }
}

function renderStatistics(statistics) {
  const body = $('#stats tbody');
  if (!body.firstElementChild) {
    for (const [group, label] of groups) {
      const row = fromTemplate('statistic-template');
      row.dataset.group = group;
      fill(row, { label });
      body.append(row);
    }
  }
  const largest = Math.max(...Object.values(statistics).map((group) => group.totalAmount), 0);
  for (const row of document.querySelectorAll('#stats tbody tr')) {
    const group = statistics[row.dataset.group];
    $('.count', row).textContent = String(group.totalCount);
    $('.amount', row).textContent = amountText(group.totalAmount);
    // Set through the CSS object model, which the page's Content-Security-Policy allows (style attributes it does not).
    $('.bar > span', row).style.setProperty('--share', largest > 0 ? String(group.totalAmount / largest) : '0');
  }
  for (const option of $('#filter').options) {
    if (!option.value) continue;
    option.textContent = `${stateNames[option.value]} (${statistics[groupOfState[option.value]].totalCount})`;
  }
}

function renderInvoices() {
  // The sandbox has filtered already; filtering here too shows a new choice of state at once, before it answers.
  const filter = $('#filter').value;
  const visible = view.invoices.filter((invoice) => !filter || invoice.status === filter).slice(0, shown);
  const matching = Math.max(view.matching, visible.length);
  let focusIn;
  const items = visible.map((invoice) => {
    const signature = JSON.stringify(invoice);
    const known = cards.get(invoice.invoiceNumber);
    if (known?.signature === signature) return known.element;
    const element = invoiceCard(invoice);
    if (known) {
      // The new card opens what the old one had open, and takes the focus if the old one had it.
      for (const part of element.querySelectorAll('details[data-part]')) {
        const was = $(`details[data-part="${part.dataset.part}"]`, known.element);
        if (was) part.open = was.open;
      }
      if (known.element.contains(document.activeElement)) focusIn = element;
    }
    cards.set(invoice.invoiceNumber, { signature, element });
    return element;
  });
  const list = $('#invoice-list');
  // Cards already in place stay where they are, so focus and open parts survive a live update.
  let cursor = list.firstElementChild;
  for (const item of items) {
    if (item === cursor) cursor = cursor.nextElementSibling;
    else list.insertBefore(item, cursor);
  }
  while (cursor) {
    const next = cursor.nextElementSibling;
    cursor.remove();
    cursor = next;
  }
  const numbers = new Set(visible.map((invoice) => invoice.invoiceNumber));
  for (const number of cards.keys()) if (!numbers.has(number)) cards.delete(number);
  focusIn?.querySelector('h3').focus();
  $('#invoice-count').textContent =
    matching === 0
      ? $('#search').value.trim()
        ? 'No invoice has that number or business reference.'
        : 'No invoices in this state.'
      : `Newest first: ${visible.length} of ${matching} invoice${matching === 1 ? '' : 's'}.`;
  $('#more').hidden = visible.length >= matching;
}

/** A copy of the template's first element. */
function fromTemplate(id) {
  return document.getElementById(id).content.firstElementChild.cloneNode(true);
}

/** Sets each [data-field] element's text; a field with no value hides its row. */
function fill(root, values) {
  for (const element of root.querySelectorAll('[data-field]')) {
    const value = values[element.dataset.field];
    if (value === undefined || value === null || value === '') {
      const row = element.closest('.row');
      if (row) row.hidden = true;
    } else element.textContent = String(value);
  }
}

function invoiceCard(invoice) {
  const number = invoice.invoiceNumber;
  const card = fromTemplate('invoice-template');
  card.dataset.invoice = number;
  card.dataset.state = invoice.status;
  const { customer, cycle } = invoice;
  fill(card, {
    number,
    customer: customer.name,
    amount: amountText(invoice.amount),
    state: stateNames[invoice.status],
    reference: invoice.businessReference,
    contact: [customer.mobile, customer.email].filter(Boolean).join(' · '),
    note: invoice.note,
    kind: cycle ? `Recurring: every ${cycle.cycleValue} ${cycle.cycleType.toLowerCase()}(s)` : 'Single',
    created: formatTime(invoice.createdAt),
    sendingDate: invoice.sendingDate,
    releaseDate: formatTime(invoice.releaseDate),
    expiryDate: formatTime(invoice.expiryDate),
    paidAt: formatTime(invoice.paidAt),
    canceledAt: formatTime(invoice.canceledAt),
    expiredAt: formatTime(invoice.expiredAt),
    orderReferenceNumber: invoice.orderReferenceNumber,
    refunds: invoice.refunds.map((refund) => `${amountText(refund.amount)}, ${refund.reason}`).join('; '),
    messagesSummary: `Notifications (${invoice.messages.length})`,
  });
  $('.actions', card).append(...actionsOf(invoice));
  const list = $('.message-list', card);
  if (invoice.messages.length === 0) {
    const none = document.createElement('p');
    none.className = 'hint';
    none.textContent = `No notification: the customer is told by ${invoice.communicationMethod}.`;
    list.append(none);
  }
  for (const message of invoice.messages) list.append(messageView(message));
  return card;
}

function button(text, label, onClick) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.addEventListener('click', () => {
    // Busy rather than disabled: a disabled button loses the focus, and a keyboard user their place.
    if (element.getAttribute('aria-disabled') === 'true') return;
    element.setAttribute('aria-disabled', 'true');
    onClick().finally(() => element.removeAttribute('aria-disabled'));
  });
  return element;
}

function actionsOf(invoice) {
  const number = invoice.invoiceNumber;
  const path = `/__sandbox/invoices/${encodeURIComponent(number)}`;
  if (invoice.status === 'UNPAID') {
    return [
      button('Pay', `Pay invoice ${number}`, () =>
        act(async () => {
          const paid = await request('POST', `${path}/pay`, {});
          return `Invoice ${paid.invoiceNumber} is paid; order reference number ${paid.orderReferenceNumber}.`;
        }),
      ),
      button('Cancel', `Cancel invoice ${number}`, () =>
        act(async () => {
          await request('POST', `${path}/cancel`, {});
          return `Invoice ${number} is canceled.`;
        }),
      ),
      button('Expire', `Expire invoice ${number}: move the clock to its expiry date`, () =>
        act(async () => moved(await request('POST', '/__sandbox/clock', { now: invoice.expiryDate }))),
      ),
    ];
  }
  if (invoice.status === 'PAID' && invoice.orderReferenceNumber) return [refundForm(invoice)];
  return [];
}

/** A refund goes through the service's own route, as `einvoice refund` does, with a token the sandbox issues. */
function refundForm(invoice) {
  const details = fromTemplate('refund-template');
  const form = $('form', details);
  form.elements.amount.value = String(invoice.amount);
  form.setAttribute('aria-label', `Refund invoice ${invoice.invoiceNumber}`);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const submit = $('button', form);
    if (submit.getAttribute('aria-disabled') === 'true') return;
    submit.setAttribute('aria-disabled', 'true');
    act(async () => {
      const { token } = await request('POST', '/__sandbox/tokens', { ttlSeconds: 300 });
      await request(
        'POST',
        `/invoice-api/invoices/${encodeURIComponent(invoice.invoiceNumber)}/refund`,
        {
          amount: form.elements.amount.value.trim(),
          reason: form.elements.reason.value,
          orderReferenceNumber: invoice.orderReferenceNumber,
        },
        token,
      );
      return `Invoice ${invoice.invoiceNumber} is refunded.`;
    }).finally(() => submit.removeAttribute('aria-disabled'));
  });
  return details;
}

function moved(clock) {
  const expired = clock.expired?.length ? `expired: ${clock.expired.join(', ')}` : 'no invoice expired';
  return `The sandbox clock is now ${formatTime(clock.now)}; ${expired}.`;
}

/** An SMS as a message bubble on a phone, an e-mail as an e-mail, in the invoice's language and direction. */
function messageView(message) {
  const sms = message.channel === 'SMS';
  const element = fromTemplate(sms ? 'sms-template' : 'email-template');
  element.dataset.to = message.to;
  element.dataset.lang = message.lang;
  const recipient = message.to === 'merchant' ? 'the merchant' : message.address;
  const when = message.sent ? `sent ${formatTime(message.at)}` : 'preview, not in the outbox';
  fill(element, {
    caption: `${sms ? 'SMS' : 'E-mail'} to ${recipient} · ${when}`,
    address: message.address,
    subject: message.subject,
    text: message.text,
  });
  showRuns($('[data-field="text"]', element), message.textRuns);
  if (message.subjectRuns) showRuns($('[data-field="subject"]', element), message.subjectRuns);
  if (message.lang === 'ar-eg') {
    const parts = sms ? [$('.phone', element)] : [$('.subject', element), $('.mail-body', element)];
    for (const part of parts) {
      part.lang = 'ar';
      part.dir = 'rtl';
    }
  }
  return element;
}

/**
 * Sets `element`'s text from its runs: each that reads left to right inside right-to-left text (a date, an amount, a
 * number) isolated in a <bdi dir="ltr">, so it reads as one piece whatever surrounds it.
 */
function showRuns(element, runs) {
  element.replaceChildren(
    ...runs.map((run) => {
      if (!run.ltr) return document.createTextNode(run.text);
      const isolated = document.createElement('bdi');
      isolated.dir = 'ltr';
      isolated.textContent = run.text;
      return isolated;
    }),
  );
}

/** Follows the sandbox's changes; after a lost connection, reads the whole view again. */
function follow() {
  const live = $('#live');
  const show = (state, text) => {
    live.dataset.live = state;
    live.textContent = text;
  };
  const events = new EventSource('/__sandbox/events');
  events.addEventListener('open', () => {
    show('live', 'Live');
    refresh();
  });
  events.addEventListener('change', () => refresh());
  events.addEventListener('error', () => show('lost', 'Reconnecting…'));
}

$('#filter').addEventListener('change', () => {
  shown = pageSize;
  if (view) renderInvoices();
  refresh();
});
$('#search').addEventListener('input', () => {
  shown = pageSize;
  refresh();
});
$('#search-form').addEventListener('submit', (event) => event.preventDefault());
$('#more').addEventListener('click', () => {
  shown += pageSize;
  refresh();
});
$('#clock-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const advance = $('#advance').value;
  act(async () => moved(await request('POST', '/__sandbox/clock', { advance })));
});
refresh();
follow();
