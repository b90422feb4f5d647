package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// askedJS holds once the approval run is interrupted and its question
// has taken focus: both stay so until the person acts.
const askedJS = `document.querySelector('[role=status]')?.textContent === 'Interrupted' &&
	document.activeElement === document.getElementById('question')`

// endedJS holds once run n has ended and its stream closed: an event after
// RUN_FINISHED can still fail a run, so a status alone is not the end.
func endedJS(n int) string {
	return fmt.Sprintf(`(() => {
		const detail = document.querySelector('.run-detail').textContent;
		const status = document.querySelector('[role=status]').textContent;
		return detail.startsWith('run-%d ·') && !detail.includes('still open') &&
			['Completed', 'Failed', 'Cancelled', 'Interrupted'].includes(status);
	})()`, n)
}

// ask runs the approval scenario (or another that asks) to its question.
func (p *page) ask(scenario string) {
	p.t.Helper()
	p.startRun(scenario)
	p.until("the question, focused", askedJS)
}

// questionButtons are the answers the question offers, in order.
func (p *page) questionButtons() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#question button')].map(b => b.textContent.trim())`)
}

// markTitle is the chart mark's title of a service.
func (p *page) markTitle(id string) string {
	return eval[string](p, fmt.Sprintf(`document.querySelector('svg [data-service-id=%q] title')?.textContent ?? ''`, id))
}

// The approval scenario by mouse or touch, in both themes, at both sizes:
// the agent's question takes focus with Approve, Reject and Cancel
// request, axe-core finds nothing on it, and each answer resumes the run
// on the same thread: approved, API's p95 is back to 60 ms on the chart
// and in the table (unchanged against the thread's first snapshot);
// rejected or cancelled, nothing changes. The server played the answer's
// continuation for the page's thread.
func TestInterruptAndResume(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			atEachViewport(t, func(t *testing.T, p *page) {
				p.emulateColorScheme(scheme)
				for i, answer := range []struct {
					button, continuation, p95, change string
				}{
					{"Approve", "approved", "60", "unchanged"},
					{"Reject", "rejected", "145", "+85 ms"},
					{"Cancel request", "cancelled", "145", "+85 ms"},
				} {
					p.ask("approval")
					thread := p.thread()
					if got := strings.Join(p.questionButtons(), "|"); got != "Approve|Reject|Cancel request" {
						t.Fatalf("the question offers %q", got)
					}
					says := eval[string](p, `document.getElementById('question').textContent`)
					if !strings.Contains(says, "Roll back API's deploy? Its p95 rose from 60 to 145 ms.") || strings.Contains(eval[string](p, `document.body.textContent`), "not part of this demo") {
						t.Errorf("the question says %q", says)
					}
					if i == 0 {
						p.checkAxe("interrupted")
						p.checkFits()
					}
					p.input(chromedp.Click(`tr[data-service-id="api"]`))
					p.until("API selected", `document.querySelector('tr[data-service-id="api"]').getAttribute('aria-selected') === 'true'`)
					p.click(answer.button)
					p.until("the resumed run to end", endedJS(2)) // each round is a page of its own
					p.checkStatuses("Idle", "Connecting", "Awaiting snapshot", "Streaming", "Interrupted", "Connecting", "Streaming", "Completed")
					if s := p.status(); s != "Completed" {
						t.Fatalf("%s: the resumed run ended %s", answer.button, s)
					}
					if got := p.cell("api", 2); got != answer.p95 {
						t.Errorf("%s: API's p95 in the table %q, want %s", answer.button, got, answer.p95)
					}
					if got := p.cell("api", 3); !strings.Contains(got, answer.change) {
						t.Errorf("%s: API's change %q, want %q", answer.button, got, answer.change)
					}
					if got := p.markTitle("api"); !strings.Contains(got, "p95 "+answer.p95+" ms") {
						t.Errorf("%s: API's mark %q", answer.button, got)
					}
					if !p.selected("api") || p.thread() != thread || eval[int](p, `document.querySelectorAll('#question').length`) != 0 {
						t.Errorf("%s: the selection, the thread or the question did not carry over as it should", answer.button)
					}
					if i == 0 {
						p.checkAxe("resumed")
					}
					ended := p.streamsEnded(thread, 2)
					if last := ended[len(ended)-1]; last.Scenario != "approval" || last.Continuation != answer.continuation {
						t.Errorf("%s: the server played %+v", answer.button, last)
					}
				}
			})
		})
	}
}

// An interrupt that expired before it came offers Cancel request alone,
// says when it expired, and cancelling resumes the run.
func TestAnExpiredQuestion(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.ask("expired-interrupt")
		if got := strings.Join(p.questionButtons(), "|"); got != "Cancel request" {
			t.Fatalf("an expired question offers %q", got)
		}
		if says := eval[string](p, `document.querySelector('#question .expired')?.textContent ?? ''`); !strings.Contains(says, "expired at 1 Jan 2026, 00:00 UTC") {
			t.Errorf("the expired question says %q", says)
		}
		p.click("Cancel request")
		p.until("the resumed run to end", endedJS(2))
		if s := p.status(); s != "Completed" || p.cell("api", 2) != "145" {
			t.Errorf("%s, API %s", s, p.cell("api", 2))
		}
		if ended := p.streamsEnded(p.thread(), 2); ended[1].Continuation != "cancelled" {
			t.Errorf("the server played %+v", ended[1])
		}
	})
}

// The whole exchange by keyboard alone: choose approval in the select,
// Run, the question takes focus, Tab to Approve, Enter; then again, Tab
// to Cancel request, Space. Focus lands on Run after each answer.
func TestInterruptByKeyboard(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.open("/agent-analysis")
		p.tab("a:Skip to content")
		p.press(kb.Enter)
		p.expectFocus("#main")
		p.tab("#scenario")
		// normal, invalid, slow, approval
		p.press(kb.ArrowDown, kb.ArrowDown, kb.ArrowDown)
		p.until("approval chosen", `document.getElementById('scenario').value === 'approval' && document.getElementById('scenario-says').textContent.startsWith('After the spike')`)
		p.tab("#run")
		p.press(kb.Enter)
		p.until("the question, focused", askedJS)
		p.tab("button:Approve")
		p.press(kb.Enter)
		p.until("the resumed run to end", endedJS(2))
		if s, api := p.status(), p.cell("api", 2); s != "Completed" || api != "60" {
			t.Fatalf("approved by keyboard: %s, API %s", s, api)
		}
		p.expectFocus("#run") // the answer's buttons are gone: focus goes to Run

		p.press(kb.Enter)
		p.until("the second question, focused", askedJS)
		p.tab("button:Approve", "button:Reject", "button:Cancel request")
		p.press(" ")
		p.until("the second resumed run to end", endedJS(4))
		if s := p.status(); s != "Completed" {
			t.Errorf("cancelled by keyboard: %s", s)
		}
		p.expectFocus("#run")
	})
}

// Run while the question is open does not continue the thread without
// answering: it leaves the question and starts a fresh run on a new
// thread, which the server sees.
func TestRunWhileAsked(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.ask("approval")
		first := p.thread()
		p.selectScenario("normal")
		p.click("Run")
		p.until("the new run to end", endedJS(2))
		second := p.thread()
		if second == first || !strings.HasPrefix(second, first) || p.status() != "Completed" {
			t.Errorf("Run while asked went on %s from %s (%s)", second, first, p.status())
		}
		if ended := p.streamsEnded(second, 1); ended[0].Scenario != "normal" || ended[0].Continuation != "" {
			t.Errorf("the new thread's run: %+v", ended[0])
		}
	})
}

// A warning shows on the status with its count, and its button opens the
// Wire disclosure at the warned event, focused.
func TestWarningsOnTheStatus(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("newer-version")
		p.until("the run to end", endedJS(1))
		// What is seen, and what the button is called.
		if got := eval[string](p, `(() => {
			const line = document.querySelector('.status').cloneNode(true);
			line.querySelectorAll('.visually-hidden').forEach(e => e.remove());
			return line.textContent.replace(/\s+/g, ' ').trim() + ' | ' + document.getElementById('warnings').textContent;
		})()`); got != "Completed · 1 warning | Show 1 warning" {
			t.Errorf("status line %q", got)
		}
		if open := eval[bool](p, `document.querySelector('details.wire').open`); open {
			t.Fatal("the Wire is open before the warning is asked for")
		}
		p.click("Show 1 warning")
		p.until("the warned event focused", `document.querySelector('details.wire').open &&
			document.activeElement?.matches('.wire li.arrival.warned') === true`)
		if got := eval[string](p, `document.activeElement.textContent`); !strings.Contains(got, "RUN_STARTED") || !strings.Contains(got, "Warning: ") {
			t.Errorf("focus is on %q", got)
		}
	})
}

// The invalid run is this demo's refusal, not a broken protocol: the
// status says who, the alert quotes AG-UI 1.x's MAY as a permission and
// says what lifecycle rule 4 is.
func TestInvalidIsTheDemosRefusal(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		p.startRun("invalid")
		p.until("the run to fail", endedJS(1))
		if who := eval[string](p, `document.querySelector('.status .who')?.textContent ?? ''`); who != " · this demo" {
			t.Errorf("ended by %q", who)
		}
		if detail := eval[string](p, `document.querySelector('.run-detail').textContent`); detail != "run-1 · this demo refused it" {
			t.Errorf("run detail %q", detail)
		}
		alert := eval[string](p, `document.querySelector('[role=alert]').textContent`)
		for _, want := range []string{"This demo's choice, not a broken rule", "permits either", "MAY continue with its prior value rather than failing the run",
			"Decided by lifecycle rule 4: a broken AG-UI 1.x rule fails the run"} {
			if !strings.Contains(alert, want) {
				t.Errorf("the alert %q lacks %q", alert, want)
			}
		}
		if strings.Contains(alert, "roke AG-UI") {
			t.Errorf("the alert calls the demo's choice a broken rule: %q", alert)
		}
	})
}

// A valid stream whose state is not {services: [...]}, as a script served
// with -fixtures may carry, is a state this demo cannot draw: the screen
// says so, and never that the stream broke AG-UI.
func TestAForeignStateIsTheDemosLimit(t *testing.T) {
	dir := t.TempDir()
	counter := `{"type":"RUN_STARTED","threadId":"t","runId":"r","protocolVersion":"1.1"}` + "\n" +
		`{"type":"STATE_SNAPSHOT","snapshot":{"count":1}}` + "\n" +
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n"
	path := filepath.Join(dir, "counter.jsonl")
	if err := os.WriteFile(path, []byte(counter), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, err := startServer(serverBin, "-web", webDir, "-no-delay", "-fixtures", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.stop()
	atViewports(t, viewports[:1], func(t *testing.T, p *page) {
		p.base = srv.url
		p.open("/agent-analysis")
		p.selectScript("counter", "Loaded from "+path+".")
		p.click("Run")
		p.until("the run to fail", endedJS(1))
		if who := eval[string](p, `document.querySelector('.status .who')?.textContent ?? ''`); who != " · this demo" {
			t.Errorf("ended by %q", who)
		}
		if detail := eval[string](p, `document.querySelector('.run-detail').textContent`); detail != "run-1 · this demo draws only {services: [...]} state" {
			t.Errorf("run detail %q", detail)
		}
		alert := eval[string](p, `document.querySelector('[role=alert]').textContent`)
		if !strings.Contains(alert, "AG-UI 1.x lets a state be any JSON value: the stream broke no rule") || strings.Contains(alert, "roke AG-UI 1") {
			t.Errorf("the alert %q", alert)
		}
	})
}
