/**
 * IranKish's mapping (src/psps/irankish/mapping.ts), pure code: the response codes as IranKish
 * writes them, what an answer that is not done refuses with, the reference of a sale and its parts,
 * the envelope's text and the public key's forms, and the return told from other PSPs' returns.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import {
  answerCode,
  answeredOk,
  envelopeText,
  IRANKISH_CODE,
  irankishPublicKey,
  irankishReference,
  readConfirmation,
  recognisesIrankishReturn,
  referenceParts,
  responseCode,
} from '../../../../src/psps/irankish/mapping.ts';

describe("IranKish's mapping", () => {
  it('reads response codes as IranKish writes them: "00", zero-padded, plain, numbers', () => {
    assert.deepEqual(['00', '05', '5', 17, ' 921 ', '', 'x', null].map(responseCode), [
      0,
      5,
      5,
      17,
      921,
      Number.NaN,
      Number.NaN,
      Number.NaN,
    ]);
  });

  it("is done only on 00, a status not false and the result's own 00; a refusal never carries 00", () => {
    assert.equal(answeredOk({ responseCode: '00', status: true, result: { responseCode: '00' } }), true);
    assert.equal(answeredOk({ responseCode: '00' }), true);
    assert.equal(answeredOk({ responseCode: '00', status: false }), false);
    assert.equal(answeredOk({ responseCode: '00', status: true, result: { responseCode: '51' } }), false);
    assert.deepEqual(answerCode({ responseCode: '00', status: true, result: { responseCode: '51' } }).code, 51);
    assert.deepEqual(answerCode({ responseCode: '00', status: false }).code, IRANKISH_CODE.NO_CODE);
    assert.deepEqual(answerCode({ description: 'nothing' }).code, IRANKISH_CODE.NO_CODE);
    assert.deepEqual(answerCode({ responseCode: '915', description: 'terminal' }), {
      code: 915,
      description: 'terminal',
    });
    const refused = readConfirmation({ responseCode: '00', status: false }, 'p', '1-1-T', '08012345');
    assert.ok(refused.result === 'refused' && refused.code === IRANKISH_CODE.NO_CODE);
  });

  it("makes a sale's reference of its RRN, STAN and token and reads it back; nothing else is one", () => {
    const parts = { rrn: '104205725075', stan: '525006', token: 'AB-cd_12+/=' };
    assert.equal(irankishReference(parts), '104205725075-525006-AB-cd_12+/=');
    assert.deepEqual(referenceParts(irankishReference(parts)), parts);
    for (const bad of [
      '',
      '104205725075',
      '104205725075-525006-',
      'x-1-T',
      '1-x-T',
      '1-1-a.b',
      `1-1-${'a'.repeat(101)}`,
    ])
      assert.equal(referenceParts(bad), undefined, bad);
  });

  it('seals the terminal, the password and the amount as hex, and refuses a terminal or password that is not hex of whole bytes', () => {
    assert.equal(
      envelopeText('08012345', '1A2B3C4D5E6F7081', 130_000).toString('hex'),
      '080123451a2b3c4d5e6f708100000013000000',
    );
    assert.equal(envelopeText('08012345', '', 1).length, 11);
    assert.throws(() => envelopeText('08012345', 'not-hex!', 1), /hexadecimal/);
    assert.throws(() => envelopeText('08012345', 'ABC', 1), /whole bytes/);
  });

  it("takes IranKish's public key as PEM (real or escaped new lines) or the base64 of its DER; anything else is refused without the value", () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const pem = String(publicKey.export({ type: 'spki', format: 'pem' }));
    const der = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    for (const form of [pem, pem.replace(/\n/g, '\\n'), der])
      assert.equal(irankishPublicKey(form).asymmetricKeyType, 'rsa');
    const { publicKey: ec } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    for (const bad of ['', 'not a key', ec.export({ type: 'spki', format: 'der' }).toString('base64')])
      assert.throws(
        () => irankishPublicKey(bad),
        (e: unknown) =>
          e instanceof Error && /RSA public key/.test(e.message) && (bad === '' || !e.message.includes(bad)),
      );
  });

  it("recognises its return by its own field names, and no other PSP's", () => {
    assert.equal(recognisesIrankishReturn({ token: 'T', responseCode: '00', requestId: '1' }), true);
    assert.equal(recognisesIrankishReturn({ State: 'OK', RefNum: 'x', ResNum: 'p' }), false, "SEP's");
    assert.equal(recognisesIrankishReturn({ OrderId: '1', token: 'T', ResCode: '0' }), false, "Sadad's");
    assert.equal(recognisesIrankishReturn({ RefId: 'R', ResCode: '0', SaleOrderId: '1' }), false, "Mellat's");
  });
});
