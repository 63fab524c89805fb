import { akbankBankModule } from "./akbank/index";
import { estBankModule } from "./est/index";
import { garantiBankModule } from "./garanti/index";
import type { BankModule } from "./module";
import { payflexBankModule } from "./payflex/index";
import { posnetBankModule } from "./posnet/index";
import { simBankModule } from "./sim/index";

// The banks kasa knows (docs/banks.md, "Adding a bank"): one descriptor per folder, and lookups
// over a list of them. Code that needs the banks takes the list (this one by default), so a test
// can add a bank of its own. The first bank is the default of a connection without `bank`.

export const BANKS: readonly BankModule[] = [
  simBankModule,
  estBankModule,
  garantiBankModule,
  posnetBankModule,
  akbankBankModule,
  payflexBankModule,
];

/** The bank of a connection whose seed row names none: the first of the list (the simulated bank). */
export function defaultBank(banks: readonly BankModule[] = BANKS): BankModule {
  const first = banks[0];
  if (!first) throw new Error("the list of banks is empty");
  return first;
}

export const findBank = (id: string, banks: readonly BankModule[] = BANKS): BankModule | undefined => banks.find((b) => b.id === id);

/** The descriptor of a stored connection's bank; an unknown id is a corrupt row or a removed bank. */
export function bankOf(id: string, banks: readonly BankModule[] = BANKS): BankModule {
  const bank = findBank(id, banks);
  if (!bank) throw new Error(`no bank "${id}" in the list of banks`);
  return bank;
}

/**
 * The bank that pays a day-end batch made of captures through these banks, or null when an
 * operator transfers it: only a batch of one bank that pays its own payouts is paid by a bank.
 * A batch names no bank only if it has no items, which day end never forms; the default bank
 * answers for it, as before banks were modules.
 */
export function payingBank(bankIds: readonly string[], banks: readonly BankModule[] = BANKS): BankModule | null {
  const payer = bankIds.length === 0 ? defaultBank(banks) : findBank(bankIds[0]!, banks);
  if (payer?.payouts !== "bank") return null;
  return bankIds.every((id) => id === payer.id) ? payer : null;
}
