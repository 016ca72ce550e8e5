import assert from 'node:assert/strict';
import {
  asciiDigits,
  checkBusinessDetails,
  checkDocumentFile,
  DOCUMENT_MAX_BYTES,
  documentTypeOf,
  isValidCompanyId,
  isValidNationalId,
  isValidSheba,
  normalizeSheba,
} from '../../../src/domain/business-documents.ts';

describe('business documents: validation rules', () => {
  it('national ID (کد ملی): known valid codes pass, a wrong check digit, a repeated digit or a wrong length fail', () => {
    const table: [string, boolean][] = [
      ['0499370899', true],
      ['0790419904', true],
      ['1583250689', true],
      ['0684159414', true],
      ['4400276201', true],
      ['2540201288', true],
      ['0499370898', false], // check digit off by one
      ['1234567890', false],
      ['0000000000', false],
      ['3333333333', false],
      ['9999999999', false],
      ['049937089', false], // 9 digits
      ['04993708990', false], // 11 digits
      ['04993708a9', false],
      ['', false],
    ];
    for (const [code, valid] of table) assert.equal(isValidNationalId(code), valid, code);
  });

  it('company national ID (شناسه ملی): 11 digits with its check digit', () => {
    const table: [string, boolean][] = [
      ['10380284790', true],
      ['14000123453', true],
      ['10100523413', true],
      ['10380284792', false],
      ['10380285692', false],
      ['11111111111', false],
      ['12300000000', false], // digits 4–9 all zero
      ['1038028479', false], // 10 digits
      ['103802847900', false],
    ];
    for (const [code, valid] of table) assert.equal(isValidCompanyId(code), valid, code);
  });

  it('IBAN (Sheba): IR and 24 digits with the ISO 13616 mod-97 check', () => {
    const table: [string, boolean][] = [
      ['IR820540102680020817909002', true],
      ['IR490170000000001234567890', true],
      ['IR820540102680020817909003', false], // one digit changed
      ['IR830540102680020817909002', false], // check digits changed
      ['IR01234567890123456789', false], // too short
      ['IR012345678901234567890123456789', false], // too long
      ['DE820540102680020817909002', false], // not Iranian
      ['ir820540102680020817909002', false], // normalized first (below)
    ];
    for (const [iban, valid] of table) assert.equal(isValidSheba(iban), valid, iban);
    assert.equal(normalizeSheba('ir82 0540 1026 8002 0817 9090 02'), 'IR820540102680020817909002');
    assert.equal(normalizeSheba('IR۸۲۰۵۴۰۱۰۲۶۸۰۰۲۰۸۱۷۹۰۹۰۰۲'), 'IR820540102680020817909002');
  });

  it('Persian and Arabic-Indic digits are read as digits', () => {
    assert.equal(asciiDigits('۰۴۹۹۳۷۰۸۹۹'), '0499370899');
    assert.equal(asciiDigits('٠٤٩٩ ٣٧٠٨٩٩'), '0499370899');
    assert.equal(asciiDigits('049-937-0899'), '0499370899');
  });

  it('checkBusinessDetails answers every wrong field at once, or the normalized details', () => {
    assert.deepEqual(
      checkBusinessDetails({ legal_name: ' ', id_kind: 'person', national_id: '1234567890', iban: 'IR00' }),
      { errors: ['legal_name', 'national_id', 'iban'] },
    );
    assert.deepEqual(
      checkBusinessDetails({
        legal_name: 'X',
        id_kind: 'company',
        national_id: '0499370899',
        iban: 'IR820540102680020817909002',
      }),
      { errors: ['company_id'] },
    );
    assert.deepEqual(
      checkBusinessDetails({
        legal_name: 'X',
        id_kind: 'alien',
        national_id: '0499370899',
        iban: 'IR820540102680020817909002',
      }),
      { errors: ['id_kind'] },
    );
    assert.deepEqual(
      checkBusinessDetails({
        legal_name: '  فروشگاه   نمونه ',
        id_kind: 'person',
        national_id: '۰۴۹۹۳۷۰۸۹۹',
        iban: 'ir82 0540 1026 8002 0817 9090 02',
      }),
      {
        details: {
          legal_name: 'فروشگاه نمونه',
          id_kind: 'person',
          national_id: '0499370899',
          iban: 'IR820540102680020817909002',
        },
      },
    );
    assert.ok(
      'errors' in
        checkBusinessDetails({
          legal_name: 'x'.repeat(201),
          id_kind: 'person',
          national_id: '0499370899',
          iban: 'IR820540102680020817909002',
        }),
    );
  });

  it('files: the type comes from the content, never the name; at most 5 MB', () => {
    const bytes = (...b: number[]) => Uint8Array.from([...b, 0, 1, 2, 3]);
    assert.equal(documentTypeOf(Buffer.from('%PDF-1.7\n%âãÏÓ')), 'application/pdf');
    assert.equal(documentTypeOf(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)), 'image/png');
    assert.equal(documentTypeOf(bytes(0xff, 0xd8, 0xff, 0xe0)), 'image/jpeg');
    assert.equal(documentTypeOf(Buffer.from('<html>not a pdf</html>')), undefined);
    assert.equal(documentTypeOf(Buffer.from('GIF89a')), undefined);
    assert.equal(documentTypeOf(Buffer.from('%PD')), undefined, 'a truncated signature');
    assert.equal(documentTypeOf(new Uint8Array()), undefined);
    assert.deepEqual(checkDocumentFile(Buffer.from('%PDF-1.4')), { type: 'application/pdf' });
    const big = Buffer.alloc(DOCUMENT_MAX_BYTES + 1);
    big.write('%PDF-');
    assert.deepEqual(checkDocumentFile(big), { error: 'file_size' });
    assert.deepEqual(checkDocumentFile(Buffer.from('MZ executable')), { error: 'file_type' });
  });
});
