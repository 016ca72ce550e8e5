/** A valid Sheba IBAN for tests: IR, the ISO 13616 check digits, and the 22 digits given (padded with zeros). */
export function shebaFor(digits: string | number): string {
  const bban = String(digits).padStart(22, '0');
  // The check digits make `bban + "IR" + check` (letters as numbers, I = 18, R = 27) ≡ 1 mod 97.
  let remainder = 0;
  for (const digit of `${bban}182700`) remainder = (remainder * 10 + Number(digit)) % 97;
  return `IR${String(98 - remainder).padStart(2, '0')}${bban}`;
}
