package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The chart at 1280, 390 and 320 px: its text is at least 12 CSS px,
// nothing is clipped, no label is crossed by a connector or the budget line
// or covers a mark or another label, and the page, chart and table fit, a
// row selected. Checked idle, streaming after the spike (held by the gate),
// completed and failed.
func TestChartReadsAtEverySize(t *testing.T) {
	atViewports(t, append(viewports, narrow), func(t *testing.T, p *page) {
		gate := startGate(t)
		p.via(gate)
		p.open("/agent-analysis")
		p.checkChart("idle")

		stream := p.runToSpike(gate)
		p.input(chromedp.Click(`tr[data-service-id="checkout"]`))
		p.until("Checkout selected", `document.querySelector('g.mark.selected[data-service-id="checkout"]') !== null`)
		p.checkChart("streaming, Checkout selected")
		stream.passAll()
		p.waitStatus("Completed", load)
		p.input(chromedp.Click(`tr[data-service-id="api"]`))
		p.until("API selected", `document.querySelector('g.mark.selected[data-service-id="api"]') !== null`)
		p.checkChart("completed, API selected")
		p.checkFits()

		p.selectScenario("invalid")
		p.click("Run")
		gate.next().passAll()
		p.waitStatus("Failed", load)
		p.checkChart("failed")
		p.checkFits()

		// The longest name the core accepts, 64 characters and no space,
		// does not break words elsewhere: the table scrolls inside its card,
		// the page does not.
		p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('tbody th .name').textContent = 'W'.repeat(64)`))
		if o := p.overflow(); o > 0 {
			t.Errorf("a 64-character name: the page overflows by %d px", o)
		}
		if over := eval[float64](p, `(() => {
			const wrap = document.querySelector('.table-wrap');
			return wrap.getBoundingClientRect().right - wrap.closest('.card').getBoundingClientRect().right;
		})()`); over > 0.5 {
			t.Errorf("a 64-character name: the table's scroller sticks out of its card by %.1f px", over)
		}
	})
}

// checkChart fails on each problem chartProblemsJS finds.
func (p *page) checkChart(state string) {
	p.t.Helper()
	r := eval[struct {
		Texts    int      `json:"texts"`
		Problems []string `json:"problems"`
	}](p, chartProblemsJS)
	if r.Texts < 10 {
		p.t.Errorf("%s: the chart has only %d texts", state, r.Texts)
	}
	for _, problem := range r.Problems {
		p.t.Errorf("%s at %d px: %s", state, p.vp.width, problem)
	}
}

// chartProblemsJS measures the drawn chart in the browser's own geometry.
const chartProblemsJS = `(() => {
	const svg = document.querySelector('svg.chart');
	const [, , w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
	const scale = svg.getScreenCTM().a;
	const problems = [];
	const name = el => el.textContent.trim() || el.getAttribute('class');
	const box = el => { const b = el.getBBox(); return {x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height}; };
	const meet = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
	// Liang–Barsky: does the segment pass through the box's inside?
	const crosses = (b, [ax, ay, bx, by]) => {
		let t0 = 0, t1 = 1;
		for (const [p, q] of [[ax - bx, ax - b.x0], [bx - ax, b.x1 - ax], [ay - by, ay - b.y0], [by - ay, b.y1 - ay]]) {
			if (p === 0) { if (q <= 0) return false; continue; }
			const t = q / p;
			if (p < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
		}
		return t0 < t1;
	};
	const texts = [...svg.querySelectorAll('text')];
	for (const t of texts) {
		const px = parseFloat(getComputedStyle(t).fontSize) * scale;
		if (px < 12) problems.push(name(t) + ' is ' + px.toFixed(1) + ' px');
		const b = t.getBBox();
		const m = t.getCTM(), corners = [[b.x, b.y], [b.x + b.width, b.y + b.height]].map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
		if (corners.some(([x, y]) => x < -0.5 || y < -0.5 || x > w + 0.5 || y > h + 0.5)) problems.push(name(t) + ' is clipped');
	}
	const lines = [...svg.querySelectorAll('line.connector, .budget line')].map(l => ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))));
	const symbols = [...svg.querySelectorAll('.mark > circle, .mark > path, .baseline > circle, .baseline > path')].map(box);
	const labels = [...svg.querySelectorAll('text.label, text.budget-label')];
	labels.forEach((l, i) => {
		const b = box(l);
		lines.forEach(s => { if (crosses(b, s) && !(l.classList.contains('budget-label') && s[1] === s[3] && b.y1 <= s[1] + 0.5)) problems.push(name(l) + ' is crossed by a line'); });
		symbols.forEach(s => { if (meet(b, s)) problems.push(name(l) + ' covers a mark'); });
		labels.slice(i + 1).forEach(o => { if (meet(b, box(o))) problems.push(name(l) + ' overlaps ' + name(o)); });
	});
	return {texts: texts.length, problems};
})()`
