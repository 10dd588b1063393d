import { ScoreChart } from './ScoreChart';

/** Analytics */
export function AnalyticsPage() {
  return (
    <>
      <h1>Analytics</h1>
      <ScoreChart labels={[]} counts={[]} title="Score distribution" />
    </>
  );
}
