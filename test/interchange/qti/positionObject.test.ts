import assert from 'node:assert/strict';
import { QuestionInput } from '../../../functions/src/questionTypes';
import { parseQtiXml } from '../../../functions/src/questionTypes/bankFormats';

// QTI's position object: an object (an airport's icon) placed on its stage's image (a map), scored
// by an area mapping of where it belongs: read as a hotspot of points placed on the stage's image,
// as a select point is; the object itself is not carried, and the import says so.

const QTI21 = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1"';

/** After the QTI 2.1 example "Airport Locations": three airports to place on a map of 206 × 280. */
const airports = (
  stage = '<object type="image/png" data="https://example.org/uk.png" width="206" height="280">UK</object>',
) =>
  `<assessmentItem ${QTI21} identifier="positionObjects" title="Airport Locations" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="multiple" baseType="point">
    <correctResponse><value>118 184</value><value>150 235</value><value>96 114</value></correctResponse>
    <areaMapping defaultValue="0">
      <areaMapEntry shape="circle" coords="118,184,12" mappedValue="1"/>
      <areaMapEntry shape="circle" coords="150,235,12" mappedValue="1"/>
      <areaMapEntry shape="circle" coords="96,114,16" mappedValue="1"/>
    </areaMapping>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <itemBody>
    <p>Mark the airports of Edinburgh, Glasgow and Manchester.</p>
    <positionObjectStage>${stage}
      <positionObjectInteraction responseIdentifier="RESPONSE" maxChoices="3">
        <object type="image/png" data="https://example.org/airport.png" width="16" height="16">an airport</object>
      </positionObjectInteraction>
    </positionObjectStage>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/map_response_point"/>
</assessmentItem>`;

describe('qti position object: points placed on the stage’s image', () => {
  it('reads the stage’s image as the hotspot’s, its area mapping as the areas, maxChoices as the points', () => {
    const [item] = parseQtiXml(airports()).items;
    assert.equal(item.status, 'ok', item.message ?? '');
    assert.equal(item.source_type, 'positionObjectInteraction');
    const q = item.question!;
    assert.equal(q.question_type, 'hotspot');
    assert.equal(q.question_text, '<p>Mark the airports of Edinburgh, Glasgow and Manchester.</p>');
    assert.deepEqual(q.image, { src: 'https://example.org/uk.png', width: 206, height: 280, alt: 'UK' });
    assert.equal(q.select, 'points');
    assert.equal(q.max_points, 3);
    assert.deepEqual(
      q.areas!.map((a) => [a.shape, a.coords, a.correct]),
      [
        ['circle', [118, 184, 12], true],
        ['circle', [150, 235, 12], true],
        ['circle', [96, 114, 16], true],
      ],
    );
    assert.ok(
      item.warnings.includes(
        'The object to place (an airport) is not carried: the taker places points on the image instead',
      ),
      item.warnings.join('; '),
    );
    assert.ok(QuestionInput.safeParse({ ...q, marks: 1 }).success, 'a question the bank stores');
  });

  it('without an image on its stage: an error saying so, not a crash', () => {
    const [item] = parseQtiXml(airports('')).items;
    assert.equal(item.status, 'error');
    assert.match(item.message!, /It has no image/);
  });
});
