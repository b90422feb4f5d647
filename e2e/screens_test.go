package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestScreens saves full-page screenshots of each state, in both themes,
// at 1280, 390 and 320 px, for people to look at; on the way it checks
// that no state overflows the viewport and that the page stays clean (no
// exception, console error or failed request):
//
//	E2E_SCREENS=/tmp/screens go test -count=1 -run TestScreens ./e2e
func TestScreens(t *testing.T) {
	dir := os.Getenv("E2E_SCREENS")
	if dir == "" {
		t.Skip("set E2E_SCREENS to a folder to save screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, scheme := range []string{"light", "dark"} {
		atViewports(t, append(viewports, narrow), func(t *testing.T, p *page) {
			p.emulateColorScheme(scheme)
			shot := func(state string) {
				if o := p.overflow(); o > 0 {
					t.Errorf("%s: the document overflows the %d px viewport by %d px", state, p.vp.width, o)
				}
				png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(dir, p.vp.name+"-"+scheme+"-"+state+".png"), png, 0o644)
			}
			p.open("/agent-analysis")
			shot("idle")

			p.selectScenario("slow")
			p.click("Run")
			p.waitStatus("Streaming", load)
			p.input(chromedp.Click(`tr[data-service-id="api"]`))
			p.waitFor("the spike", `document.querySelector('.accepted').textContent === 'Accepted updates: 2'`, load)
			shot("streaming")
			p.click("Cancel")
			p.waitStatus("Cancelled", load)
			shot("cancelled")

			p.selectScenario("normal")
			p.click("Run")
			p.waitStatus("Completed", load)
			shot("completed")

			p.selectScenario("invalid")
			p.click("Run")
			p.waitStatus("Failed", load)
			p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
			shot("rejected")

			p.selectScenario("approval")
			p.click("Run")
			p.waitFor("the question", askedJS, load)
			shot("interrupted")
			p.click("Approve")
			p.waitFor("the resumed run to end", endedJS(5), load)
			shot("resumed")
			p.selectScenario("expired-interrupt")
			p.click("Run")
			p.waitFor("the expired question", askedJS, load)
			shot("expired")
			p.selectScenario("newer-version")
			p.click("Run")
			p.waitFor("newer-version to end", endedJS(7), load)
			shot("warning")

			for _, fault := range []string{"nested-run-started", "unknown-event", "outcome-interrupt", "run-error"} {
				p.selectScenario(fault)
				p.click("Run")
				p.waitFor(fault+" to end", `['Completed', 'Failed', 'Cancelled', 'Interrupted'].includes(document.querySelector('[role=status]').textContent) &&
					!document.querySelector('.run-detail').textContent.includes('still open')`, load)
				p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
				shot(fault)
			}

			p.clickLink("Retained view")
			p.waitFor("the retained view", `document.querySelector('h1').textContent === 'Retained view'`, load)
			shot("retained")
			p.clickLink("All charts")
			p.waitFor("the charts page", `document.querySelector('h1')?.textContent === 'Charts'`, load)
			shot("charts")

			agent := startCrowdAgent(t, 1000)
			p.base = agent.url
			p.open("/agent-analysis")
			p.click("Run")
			agent.next()
			p.waitFor("the crowd drawn", `document.querySelector('svg.chart')?.dataset.drawing === 'false' && document.querySelector('.accepted').textContent === 'Accepted updates: 1'`, load)
			p.input(chromedp.Click(`tr[data-service-id="s2"]`))
			shot("long-list")
			agent.finish()
		})
	}
}
