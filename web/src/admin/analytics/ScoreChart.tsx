import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { useEffect, useRef } from 'react';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

/** A bar chart of how many attempts fall in each band; the table beside it carries the same figures for screen readers. */
export function ScoreChart({ labels, counts, title }: { labels: string[]; counts: number[]; title: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chart = new Chart(canvas.current!, {
      type: 'bar',
      data: { labels, datasets: [{ label: 'Attempts', data: counts, backgroundColor: '#1f3a5f' }] },
      options: {
        animation: false,
        responsive: true,
        plugins: { legend: { display: false } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    });
    return () => chart.destroy();
  }, [labels, counts]);
  return <canvas ref={canvas} role="img" aria-label={title} data-chart="score-distribution" />;
}
