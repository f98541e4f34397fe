// The simulated provider's test cards, as its 'Mode démo' form lists them. The numbers are those of
// lib/payments/simulated.ts TEST_CARDS (a server file islands may not import); a test checks that
// both lists stay the same (tests/http/deal_show_test.ts).
export interface TestCard {
  number: string;
  label: string;
}

export const DEMO_TEST_CARDS: TestCard[] = [
  { number: "4242424242424242", label: "Paiement accepté" },
  { number: "4000000000000002", label: "Carte refusée" },
  { number: "4000000000009995", label: "Fonds insuffisants" },
  { number: "4000000000000119", label: "Paiement en cours, accepté après quelques secondes" },
];

/** "4242424242424242" → "4242 4242 4242 4242". */
export function groupDigits(number: string): string {
  return number.replace(/\D/g, "").replace(/(\d{4})(?=\d)/g, "$1 ");
}
