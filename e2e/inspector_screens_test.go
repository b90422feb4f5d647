package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestInspectorScreens saves the inspector as people see it: runs passing
// a proxy (one ok, one broken, one interrupted and its resume), a broken
// run at the event that broke the rule, at 1280x800 and 390x844, light
// and dark. With E2E_DOCS set it writes the guide's two pictures into
// docs/images (make docs-screens); with E2E_SCREENS=DIR, every picture
// into DIR. It checks on the way that no state overflows the viewport.
func TestInspectorScreens(t *testing.T) {
	dir, docs := os.Getenv("E2E_SCREENS"), os.Getenv("E2E_DOCS") != ""
	if dir == "" && !docs {
		t.Skip("set E2E_SCREENS to a folder, or E2E_DOCS, to save screenshots")
	}
	for _, scheme := range []string{"light", "dark"} {
		atEachViewport(t, func(t *testing.T, p *page) {
			insp := proxyInspector(t)
			runScenario(t, insp.proxy, "thread-a", "normal")
			approveThrough(t, insp, "thread-b")
			runScenario(t, insp.proxy, "thread-c", "events-after-finish")
			p.emulateColorScheme(scheme)
			p.openInspector(insp.url, "#run=4&event=5")
			p.waitRun("4", "failed")
			p.waitShown("4")
			p.until("the state at event 5", `document.querySelector('.state .state-at')?.textContent.startsWith('After event #5: the run broke a rule at event #4')`)
			shot := func(name string) {
				if o := p.overflow(); o > 0 {
					t.Errorf("%s: the document overflows the %d px viewport by %d px", name, p.vp.width, o)
				}
				png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
				if err != nil {
					t.Fatal(err)
				}
				if dir != "" {
					os.MkdirAll(dir, 0o755)
					os.WriteFile(filepath.Join(dir, "inspector-"+p.vp.name+"-"+scheme+"-"+name+".png"), png, 0o644)
				}
				if docs && name == "failed" && (p.vp.name == "desktop") == (scheme == "light") {
					view, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
					if err != nil {
						t.Fatal(err)
					}
					os.WriteFile(filepath.Join("..", "docs", "images", "inspector-"+p.vp.name+"-"+scheme+".png"), view, 0o644)
				}
			}
			shot("failed")
			p.chooseRun("2")
			p.click("Last")
			p.until("the state at the end", `document.querySelector('.state')?.dataset.at === '7'`)
			shot("interrupted")
		})
	}
}
