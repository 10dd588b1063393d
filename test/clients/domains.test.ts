import assert from 'node:assert/strict';
import { domainOfEmail, domainVerdict, isConsumerDomain } from '../../functions/src/clients/domains';

describe('email domains an organization may bind', () => {
  const kept: [string, string][] = [
    ['school.example.edu', 'school.example.edu'],
    ['  School.Example.EDU  ', 'school.example.edu'],
    ['school.example.edu.', 'school.example.edu'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['live.school.edu', 'live.school.edu'],
    ['yahoo-school.org', 'yahoo-school.org'],
  ];
  for (const [raw, domain] of kept)
    it(`keeps ${JSON.stringify(raw)} as ${domain}`, () => assert.deepEqual(domainVerdict(raw), { ok: true, domain }));

  const notDomains = [
    '',
    '   ',
    'localhost',
    'school',
    'a@school.edu',
    'https://school.edu',
    '-bad.edu',
    'bad-.edu',
    'a..b.edu',
    '10.0.0.1',
    'x'.repeat(64) + '.edu',
    'sch ool.edu',
  ];
  for (const raw of notDomains)
    it(`refuses ${JSON.stringify(raw)}: not a domain`, () => {
      const verdict = domainVerdict(raw);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.match(verdict.message, /is not an email domain/);
    });

  const consumer = [
    'gmail.com',
    'GoogleMail.com',
    'outlook.com',
    'hotmail.com',
    'live.com',
    'yahoo.com',
    'yahoo.co.uk',
    'hotmail.fr',
    'outlook.com.br',
    'icloud.com',
    'aol.com',
    'proton.me',
  ];
  for (const raw of consumer)
    it(`refuses ${raw}: a public mail service`, () => {
      const verdict = domainVerdict(raw);
      assert.equal(verdict.ok, false);
      if (!verdict.ok) assert.match(verdict.message, /public mail service/);
    });

  it('names a family only with a country suffix after it', () => {
    assert.equal(isConsumerDomain('yahoo.de'), true);
    assert.equal(isConsumerDomain('yahoo.school.edu'), false);
  });

  it('reads the domain of an email as bound domains are kept', () => {
    assert.equal(domainOfEmail('Ann@School.Example.EDU'), 'school.example.edu');
    assert.equal(domainOfEmail('ann@bücher.example'), 'xn--bcher-kva.example');
    assert.equal(domainOfEmail('no-at-sign'), null);
    assert.equal(domainOfEmail('ann@'), null);
  });
});
