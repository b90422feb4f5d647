package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreens saves full-page screenshots of each state, in both themes,
// at both viewports, for people to look at:
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
		atEachViewport(t, func(t *testing.T, p *page) {
			p.emulateColorScheme(scheme)
			shot := func(state string) {
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
			p.waitStatus("Streaming", 5*time.Second)
			p.input(chromedp.Click(`tr[data-service-id="api"]`))
			p.waitFor("the spike", `document.querySelector('.accepted').textContent === 'Accepted updates: 2'`, 5*time.Second)
			shot("streaming")
			p.click("Cancel")
			p.waitStatus("Cancelled", 2*time.Second)
			shot("cancelled")

			p.selectScenario("normal")
			p.click("Run")
			p.waitStatus("Completed", 5*time.Second)
			shot("completed")

			p.selectScenario("invalid")
			p.click("Run")
			p.waitStatus("Failed", 5*time.Second)
			p.do(chromedp.Evaluate[chromedp.Void](`document.querySelector('details').open = true`))
			shot("rejected")

			p.clickLink("Retained view")
			p.waitFor("the retained view", `document.querySelector('h1').textContent === 'Retained view'`, 3*time.Second)
			shot("retained")
			p.clickLink("All charts")
			p.waitFor("the charts page", `document.querySelector('h1')?.textContent === 'Charts'`, 3*time.Second)
			shot("charts")
		})
	}
}
