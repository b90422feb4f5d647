package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// 10. Every scenario and fault, run from the screen, reaches its documented
// status with its documented data: the accepted count, the failure named
// with the rule that decided it, the Wire disclosure listing each frame.
func TestFaultLab(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		runs := 0
		for _, script := range fixtures.Catalogue() {
			if script.Scenario == "slow" {
				continue // 6 s long; TestCancelSlowRun and TestFilteringWhileStreaming run it
			}
			p.selectScenario(script.Scenario)
			if says := eval[string](p, `document.getElementById('scenario-says').textContent`); !strings.Contains(says, script.Expect) {
				t.Errorf("%s: the line under the select says %q", script.Scenario, says)
			}
			p.click("Run")
			runs++
			run := fmt.Sprintf("run-%d ·", runs)
			p.waitFor(script.Scenario+" to end", fmt.Sprintf(`(() => {
				const detail = document.querySelector('.run-detail').textContent;
				const status = document.querySelector('[role=status]').textContent;
				return detail.startsWith(%q) && ['Completed', 'Failed', 'Cancelled'].includes(status);
			})()`, run), load)
			want := script.Outcome
			if s, n := p.status(), p.acceptedCount(); s != want.Status || n != want.Accepted {
				t.Errorf("%s: %s with %d accepted, want %s with %d", script.Scenario, s, n, want.Status, want.Accepted)
			}
			alert := eval[string](p, `document.querySelector('[role=alert]')?.textContent ?? ''`)
			switch {
			case want.Status == "Failed" && (!strings.Contains(alert, want.Reason) || !strings.Contains(alert, "Decided by lifecycle rule")):
				t.Errorf("%s: the alert %q lacks %q or its rule", script.Scenario, alert, want.Reason)
			case want.Status != "Failed" && alert != "":
				t.Errorf("%s: an alert on a run that did not fail: %q", script.Scenario, alert)
			}
			frames := eval[[]string](p, `[...document.querySelectorAll('.wire [data-verdict]')].map(f => f.dataset.verdict)`)
			if len(frames) == 0 {
				t.Errorf("%s: the Wire disclosure lists no frame", script.Scenario)
			}
			switch script.Scenario {
			case "normal":
				if strings.Join(frames, ",") != "applied,applied,applied,applied,applied,applied" {
					t.Errorf("normal frames %v", frames)
				}
			case "invalid":
				if len(frames) < 4 || frames[3] != "rejected" {
					t.Errorf("invalid frames %v", frames)
				}
			case "events-after-finish":
				if got := p.rows(); len(got) != 3 || got[0] != "api" {
					t.Errorf("a delta after RUN_FINISHED applied: rows %v", got)
				}
			case "non-state-events":
				if !strings.Contains(strings.Join(frames, ","), "ignored") {
					t.Errorf("non-state events not shown as ignored: %v", frames)
				}
			}
		}
		// Opened, both disclosures still fit the screen.
		p.input(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
		p.checkFits()
	})
}
