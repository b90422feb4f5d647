package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// axePath is axe-core as npm installs it in e2e/axe, pinned by its
// package-lock.json.
const axePath = "axe/node_modules/axe-core/axe.min.js"

// axeSource reads axe-core, installing it first when it is missing, so
// that a plain go test on a machine with npm needs no make step.
var axeSource = sync.OnceValues(func() (string, error) {
	if _, err := os.Stat(axePath); err != nil {
		install := exec.Command("npm", "ci", "--silent", "--no-audit", "--no-fund")
		install.Dir = "axe"
		if out, err := install.CombinedOutput(); err != nil {
			return "", fmt.Errorf("installing axe-core (npm ci in e2e/axe): %v\n%s", err, out)
		}
	}
	b, err := os.ReadFile(axePath)
	return string(b), err
})

// axeRules: WCAG 2.2 A and AA, and axe's best practices.
const axeRun = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}})
	.then(r => ({
		violations: r.violations.map(v => v.id + ': ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', ')),
		passes: r.passes.length,
	}))`

type axeResult struct {
	Violations []string `json:"violations"`
	Passes     int      `json:"passes"`
}

// checkAxe runs axe-core over the page as it is and fails on any violation.
func (p *page) checkAxe(state string) {
	p.t.Helper()
	src, err := axeSource()
	if err != nil {
		p.t.Fatalf("axe-core: %v", err)
	}
	if !eval[bool](p, `typeof axe !== 'undefined'`) {
		p.do(chromedp.Evaluate[chromedp.Void](src))
	}
	r := evalAwait[axeResult](p, axeRun)
	if r.Passes < 10 {
		p.t.Errorf("%s: axe-core checked almost nothing (%d passes)", state, r.Passes)
	}
	for _, v := range r.Violations {
		p.t.Errorf("%s: %s", state, v)
	}
}

// Axe-core finds nothing on any state, in either theme, at either
// size: idle, streaming (the gate holds the run after the spike), completed,
// failed with every disclosure open, the retained view and /charts.
func TestAccessibility(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			atEachViewport(t, func(t *testing.T, p *page) {
				gate := startGate(t)
				p.via(gate)
				p.emulateColorScheme(scheme)
				p.open("/agent-analysis")
				p.checkAxe("idle")

				stream := p.runToSpike(gate)
				p.waitStatus("Streaming", load)
				p.checkAxe("streaming")
				stream.passAll()
				p.waitStatus("Completed", load)
				p.input(chromedp.Click(`tr[data-service-id="api"]`))
				p.until("API selected", `document.querySelector('tr[data-service-id="api"]').getAttribute('aria-selected') === 'true'`)
				p.checkAxe("completed")

				p.selectScenario("invalid")
				p.click("Run")
				gate.next().passAll()
				p.waitStatus("Failed", load)
				p.do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
				p.checkAxe("failed")

				p.clickLink("Retained view")
				p.until("the retained view", `document.querySelector('h1').textContent === 'Retained view'`)
				p.checkAxe("retained")
				p.clickLink("All charts")
				p.until("the charts page", `document.querySelector('h1')?.textContent === 'Charts'`)
				if !strings.HasSuffix(eval[string](p, `location.pathname`), "/charts") {
					t.Fatal("not on /charts")
				}
				p.checkAxe("charts")
			})
		})
	}
}
