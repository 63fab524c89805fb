import { APPROVED } from "./callback";
import { type AkbankConfig, processUrl } from "./config";
import { NO_RECORD } from "./history";
import { orderHistoryBody } from "./requests";
import { type AkbankTransport, messageOf, postAkbank, str } from "./wire";

// `kasa connections check`: the order history (1010) of a fresh order id, the cheapest signed call.
// `VPS-1123` (no such order) means the bank checked the auth-hash and the terminal and accepted
// them; HTTP 401 or `code 401` means it refused them.

export async function checkAkbankConnection(
  config: AkbankConfig,
  transport: AkbankTransport,
  orderId: string,
  nowMs: () => number,
  wallMs: number,
) {
  const started = nowMs();
  const reply = await postAkbank(config, transport, processUrl(config), orderHistoryBody(config, { nowMs: wallMs }, orderId));
  const latencyMs = nowMs() - started;
  const answer = reply.answer;
  if (reply.status === 0) return { answered: false, credentialsAccepted: null, latencyMs, message: "no answer" };
  const message = answer ? (messageOf(answer) ?? "") : `HTTP ${reply.status}`;
  if (reply.status === 401 || str(answer, "code") === "401") return { answered: true, credentialsAccepted: false, latencyMs, message };
  if (answer === null) return { answered: false, credentialsAccepted: null, latencyMs, message };
  const code = str(answer, "responseCode");
  return { answered: true, credentialsAccepted: code === NO_RECORD || code === APPROVED ? true : null, latencyMs, message };
}
