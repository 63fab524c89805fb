import { html, type SafeHtml } from "../html";

// Every API value a merchant sees in the panel, in Turkish (docs/panel.md, Words): states,
// channels, failure reasons, roles, event types and field names. The page shows the Turkish word
// and keeps the API name in the element's title, so a developer hovering finds the code the API
// and the webhooks use; raw payloads and codes appear only inside <code>.

export const PAYMENT_STATES: Record<string, string> = {
  initiated: "Ödeme bekleniyor",
  captured: "Tahsil edildi",
  failed: "Başarısız",
  expired: "Süresi doldu",
  voided: "İptal edildi",
  refunded: "İade edildi",
};

export const ATTEMPT_STATES: Record<string, string> = {
  starting: "Başlıyor",
  declined: "Reddedildi",
  acs: "3D doğrulamasında",
  capturing: "Tahsil ediliyor",
  captured: "Tahsil edildi",
  failed: "Başarısız",
};

export const CHANNELS: Record<string, string> = { api: "API", panel: "Panel", link: "Ödeme bağlantısı" };

/** A card attempt's outcome on the dashboard and in the reason filter (docs/panel.md, How a failure gets its reason). */
export const OUTCOMES: Record<string, string> = {
  captured: "Tahsil edildi",
  open: "Sürüyor",
  three_d_failed: "3D doğrulama başarısız",
  declined: "Banka reddetti",
  limits: "Limit ya da banka erişilemedi",
  abandoned: "Yarıda bırakıldı",
};

export const REFUND_METHODS: Record<string, string> = { void: "İptal (aynı gün)", credit: "İade" };
export const REFUND_STATES: Record<string, string> = { pending: "Bankada bekliyor", approved: "Onaylandı", declined: "Reddedildi" };

export const LINK_STATES: Record<string, string> = {
  pending: "Açılmadı",
  launched: "Açıldı",
  initiated: "Ödeme sürüyor",
  completed: "Ödendi",
  expired: "Süresi doldu",
  failed: "Başarısız deneme",
  cancelled: "İptal edildi",
};

export const PAYOUT_STATES: Record<string, string> = { pending: "Aktarılacak", paid_out: "Aktarıldı", failed: "Aktarılamadı" };

export const DELIVERY_STATES: Record<string, string> = {
  pending: "Sırada",
  delivered: "İletildi",
  failed: "İletilemedi",
  dropped: "Vazgeçildi",
};

export const DELIVERY_OUTCOMES: Record<string, string> = { delivered: "İletildi", retry: "Yeniden denenecek", permanent: "Kalıcı hata" };

export const EVENT_TYPES: Record<string, string> = {
  "payment.captured": "Ödeme tahsil edildi",
  "payment.failed": "Ödeme başarısız",
  "payment.expired": "Ödemenin süresi doldu",
  "refund.approved": "İade onaylandı",
  "refund.declined": "İade reddedildi",
  "payout.paid_out": "Aktarım yapıldı",
  "payout.failed": "Aktarım yapılamadı",
  "payment_link.completed": "Bağlantı ödendi",
  "payment_link.expired": "Bağlantının süresi doldu",
  "webhook.test": "Deneme bildirimi",
};

/** A router's attempt that no rule matched went down the fallback list (docs/routing.md). */
export const ROUTE_RULES: Record<string, string> = { fallback: "Yedek sıra (kural eşleşmedi)" };

export const ROLES: Record<string, string> = { viewer: "İzleyici", staff: "Personel", admin: "Yönetici" };
export const USER_STATES: Record<string, string> = { active: "Etkin", disabled: "Devre dışı" };
export const REQUIREMENTS: Record<string, string> = { consent: "Onay", wet_signature: "Islak imza" };
export const AUDIT_OUTCOMES: Record<string, string> = { ok: "Başarılı" };

/** The API's field names, where a heading or label names one. */
export const FIELDS = {
  paymentCode: "Ödeme kodu",
  partnerTxCode: "Sipariş kodu",
  terminalId: "Terminal",
  installment: "Taksit",
  channel: "Kanal",
  status: "Durum",
} as const;

/** A value in Turkish, its API name in the title; a value no table knows is shown as the code it is. */
export function word(table: Record<string, string>, value: string): SafeHtml {
  const turkish = Object.hasOwn(table, value) ? table[value] : undefined;
  return turkish === undefined ? html`<code>${value}</code>` : html`<span title="${value}">${turkish}</span>`;
}

/** A field's heading: the Turkish name, the API's in the title. */
export const field = (name: keyof typeof FIELDS): SafeHtml => html`<span title="${name}">${FIELDS[name]}</span>`;

/** The plain Turkish text of a value, for CSV cells and option labels. */
export const plain = (table: Record<string, string>, value: string): string =>
  (Object.hasOwn(table, value) ? table[value] : undefined) ?? value;
