import assert from 'node:assert/strict';
import { parseQtiPackage, parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';
import { buildZip } from '../zipBuilder';

// An <object> in an item's text: the image, sound or video it holds becomes the element that
// shows it here; a type no page here plays, or a file a lone item cannot carry, gives way to its
// fallback content, which may be another object (QTI's nested objects: the first that can be shown).

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

const item = (object: string) =>
  `<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="boat" title="Boat" adaptive="false" timeDependent="false">
<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier"><correctResponse><value>A</value></correctResponse></responseDeclaration>
<itemBody><p>Which is the boat?</p><p>${object}</p>
<choiceInteraction responseIdentifier="RESPONSE" maxChoices="1"><simpleChoice identifier="A">Sail</simpleChoice><simpleChoice identifier="B">Oar</simpleChoice></choiceInteraction></itemBody></assessmentItem>`;

describe('QTI objects in an item’s text', () => {
  const cases: Array<{ name: string; object: string; text: string; warning?: RegExp }> = [
    {
      name: 'an image object: an img, its text the alt, its size kept',
      object:
        '<object type="image/png" data="https://example.org/boat.png" width="200" height="100">A sailing boat</object>',
      text: '<p>Which is the boat?</p><p><img src="https://example.org/boat.png" alt="A sailing boat" width="200" height="100"></p>',
    },
    {
      name: 'a sound by its extension alone: an audio player',
      object: '<object data="https://example.org/horn.mp3">A horn</object>',
      text: '<p>Which is the boat?</p><p><audio controls src="https://example.org/horn.mp3"></audio></p>',
    },
    {
      name: 'an MP4 video: a video player',
      object: '<object type="video/mp4" data="https://example.org/sea.mp4">The sea</object>',
      text: '<p>Which is the boat?</p><p><video controls src="https://example.org/sea.mp4"></video></p>',
    },
    {
      name: 'nested: an MPEG-1 video no page plays gives way to the image inside it',
      object:
        '<object type="video/mpeg" data="https://example.org/movie.mpg"><object type="image/png" data="https://example.org/boat.png">A sailing boat</object></object>',
      text: '<p>Which is the boat?</p><p><img src="https://example.org/boat.png" alt="A sailing boat"></p>',
      warning: /An object \(video\/mpeg\) that no page here shows was replaced by its fallback content/,
    },
    {
      name: 'a plug-in: its fallback text',
      object: '<object type="application/x-shockwave-flash" data="boat.swf">A boat under sail</object>',
      text: '<p>Which is the boat?</p><p>A boat under sail</p>',
      warning: /application\/x-shockwave-flash/,
    },
    {
      name: 'a file of the package, read from a lone item: its fallback text, and why',
      object: '<object type="image/png" data="boat.png">A sailing boat</object>',
      text: '<p>Which is the boat?</p><p>A sailing boat</p>',
      warning: /The image "boat.png" was left out: a lone item file cannot carry it/,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const [read] = parseQtiXml(item(c.object)).items;
      assert.equal(read.status, 'ok', read.message ?? '');
      assert.equal(read.question!.question_text, c.text);
      if (c.warning)
        assert.ok(
          read.warnings.some((w) => c.warning!.test(w)),
          read.warnings.join('; '),
        );
    });

  it('in a package: the nested image becomes the item’s media, the video it stood in for named', async () => {
    const bank = await parseQtiPackage(
      await buildZip({
        'imsmanifest.xml': `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="m"><organizations/><resources>
<resource identifier="boat" type="imsqti_item_xmlv2p1" href="items/boat.xml"><file href="items/boat.xml"/><file href="items/boat.png"/></resource>
</resources></manifest>`,
        'items/boat.xml': item(
          '<object type="video/mpeg" data="movie.mpg"><object type="image/png" data="boat.png">A sailing boat</object></object>',
        ),
        'items/boat.png': PNG,
      }),
    );
    const [read] = bank.items;
    assert.equal(read.status, 'ok', read.message ?? '');
    assert.match(read.question!.question_text, /<img src="@@PLUGINFILE@@\/items\/boat\.png" alt="A sailing boat">/);
    assert.deepEqual([...bank.media.keys()], ['items/boat.png']);
  });
});
