package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agent-analysis/agent-analysis/fixtures"
)

// plural is "1 warning", "2 warnings".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Every scenario and fault, run from the screen, reaches its documented
// status with its documented data: the accepted count, who ended the run,
// the failure named with the AG-UI 1.0 rule it broke and the lifecycle rule
// that decided it, the engine's warnings on the Wire.
func TestFaultLab(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		// The Wire disclosure draws its events only while open.
		p.input(chromedp.Evaluate[chromedp.Void](`document.querySelector('details.wire').open = true`))
		runs := 0
		for _, script := range fixtures.All() {
			if script.Name == "slow" {
				continue // 6 s long; TestCancelSlowRun and TestFilteringWhileStreaming run it
			}
			p.selectScenario(script.Name)
			says := eval[string](p, `document.getElementById('scenario-says').textContent`)
			if !strings.Contains(says, script.ThisDemo) || !strings.Contains(says, script.Rule.Quote) {
				t.Errorf("%s: the line under the select says %q", script.Name, says)
			}
			p.click("Run")
			runs++
			// Ended, and its stream closed: an event after RUN_FINISHED can
			// still fail a run, so a status alone is not the end.
			run := fmt.Sprintf("run-%d ·", runs)
			p.waitFor(script.Name+" to end", fmt.Sprintf(`(() => {
				const detail = document.querySelector('.run-detail').textContent;
				const status = document.querySelector('[role=status]').textContent;
				return detail.startsWith(%q) && !detail.includes('still open') &&
					['Completed', 'Failed', 'Cancelled', 'Interrupted'].includes(status);
			})()`, run), load)
			want := script.Ending
			if s, n := p.status(), p.acceptedCount(); s != want.Status || n != want.Accepted {
				t.Errorf("%s: %s with %d accepted, want %s with %d", script.Name, s, n, want.Status, want.Accepted)
			}
			if who := eval[string](p, `document.querySelector('.status .who')?.textContent ?? ''`); want.Who != "" && who != " · "+want.Who {
				t.Errorf("%s: ended by %q, want %q", script.Name, who, want.Who)
			}
			alert := eval[string](p, `document.querySelector('[role=alert]')?.textContent ?? ''`)
			switch {
			case want.Status == "Failed" && (!strings.Contains(alert, want.Reason) || !strings.Contains(alert, "Decided by lifecycle rule")):
				t.Errorf("%s: the alert %q lacks %q or its rule", script.Name, alert, want.Reason)
			case want.Status == "Failed" && strings.Contains(alert, "Broke AG-UI 1.x") != (want.Who == "the stream"):
				t.Errorf("%s: ended by %s, the alert %q", script.Name, want.Who, alert)
			case want.Status != "Failed" && alert != "":
				t.Errorf("%s: an alert on a run that did not fail: %q", script.Name, alert)
			}
			frames := eval[[]string](p, `[...document.querySelectorAll('.wire [data-verdict]')].map(f => f.dataset.verdict)`)
			if len(frames) == 0 {
				t.Errorf("%s: the Wire disclosure lists no event", script.Name)
			}
			warnings := eval[[]string](p, `[...document.querySelectorAll('.wire .arrival-warnings li')].map(w => w.textContent)`)
			if script.Group == fixtures.Warn && want.Status == "Completed" && len(warnings) == 0 {
				t.Errorf("%s: the Wire shows no warning", script.Name)
			}
			if shown := eval[string](p, `document.getElementById('warnings')?.textContent ?? ''`); shown != map[bool]string{true: "Show " + plural(len(warnings), "warning"), false: ""}[len(warnings) > 0] {
				t.Errorf("%s: %d warnings on the Wire, the status shows %q", script.Name, len(warnings), shown)
			}
			if asked := eval[string](p, `[...document.querySelectorAll('#question button')].map(b => b.textContent).join('|')`); (asked != "") != (want.Status == "Interrupted") {
				t.Errorf("%s: %s, the question offers %q", script.Name, want.Status, asked)
			}
			switch script.Name {
			case "normal":
				if strings.Join(frames, ",") != "applied,applied,applied,applied,applied,applied" {
					t.Errorf("normal frames %v", frames)
				}
			case "invalid":
				if len(frames) < 4 || frames[3] != "refused" {
					t.Errorf("invalid frames %v", frames)
				}
			case "events-after-finish":
				if got := p.rows(); len(got) != 3 || got[0] != "api" {
					t.Errorf("a delta after RUN_FINISHED applied: rows %v", got)
				}
			case "non-state-events":
				if !strings.Contains(strings.Join(frames, ","), "checked") {
					t.Errorf("non-state events not shown as checked: %v", frames)
				}
			case "outcome-cancelled":
				if notice := eval[string](p, `document.querySelector('.notice')?.textContent ?? ''`); notice == "" {
					t.Errorf("%s: no notice says how the agent ended it", script.Name)
				}
			}
		}
		// Opened, both disclosures still fit the screen.
		p.input(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
		p.checkFits()
	})
}
