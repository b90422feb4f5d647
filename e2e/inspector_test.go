package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// quickAgent is the suite's server playing every script without its
// delays: runs pass the inspector's proxy as fast as they can.
var quickAgent = sync.OnceValues(func() (*serverProcess, error) {
	return startServer(serverBin, "-web", webDir, "-no-delay")
})

// proxyInspector is a fresh proxy -inspect in front of the quick agent.
func proxyInspector(t *testing.T) *inspectorProcess {
	t.Helper()
	agent, err := quickAgent()
	if err != nil {
		t.Fatal(err)
	}
	return startProxyInspector(t, agent.url+"/api/agent-analysis")
}

// A run passing the proxy appears in the open page as it happens, newest
// first, judged, with its events; its request shows header names, never
// values; a reload shows the same run.
func TestInspectorShowsRunsAsTheyPass(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		p.openInspector(insp.url, "")
		p.until("the empty list", `document.querySelector('.runs').textContent.includes('No runs yet')`)

		runScenario(t, insp.proxy, "thread-a", "normal")
		p.waitRun("1", "ok")
		if got := eval[string](p, runLinkJS("1")+`.querySelector('.run-facts').textContent`); got != "ok · live · 6 events" {
			t.Errorf("run 1 is listed as %q", got)
		}
		p.chooseRun("1")
		var types []string
		for _, r := range p.timelineRows() {
			types = append(types, r.Type)
		}
		if want := []string{"RUN_STARTED", "STATE_SNAPSHOT", "STATE_DELTA", "STATE_SNAPSHOT", "STATE_DELTA", "RUN_FINISHED"}; !reflect.DeepEqual(types, want) {
			t.Errorf("timeline %v, want %v", types, want)
		}
		request := eval[string](p, `document.querySelector('.request').textContent`)
		if !strings.Contains(request, "Content-Type") || strings.Contains(request, "Go-http-client") || strings.Contains(request, "application/json") {
			t.Errorf("the request shows a header value, or no header names: %q", request)
		}

		runScenario(t, insp.proxy, "thread-b", "normal")
		p.waitRun("2", "ok")
		if order := eval[[]string](p, `[...document.querySelectorAll('a.run-link')].map(a => a.dataset.run)`); !reflect.DeepEqual(order, []string{"2", "1"}) {
			t.Errorf("the list is %v, want the newest first", order)
		}
		if eval[string](p, `document.querySelector('a.run-link[aria-current="true"]').dataset.run`) != "1" {
			t.Error("a new run took the selection")
		}

		p.do(chromedp.Reload())
		p.waitFor("the inspector to start again", `document.querySelector('.inspector[data-ready="true"]') !== null`, 2*load)
		p.waitShown("1")
		if o := p.overflow(); o > 0 {
			t.Errorf("the page overflows the %d px viewport by %d px", p.vp.width, o)
		}
	})
}

// A run that broke a rule shows the rule at the event that broke it, as a
// link to the rule's spec page that opens apart from this page.
func TestInspectorMarksTheBrokenEvent(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		runScenario(t, insp.proxy, "thread-a", "events-after-finish")
		p.openInspector(insp.url, "")
		p.waitRun("1", "failed")
		if got := eval[string](p, runLinkJS("1")+`.querySelector('.verdict').textContent`); got != "failed: after-finish" {
			t.Errorf("verdict %q", got)
		}
		p.chooseRun("1")
		type mark struct{ Row, Rule, Href, Target, Rel, Text string }
		marks := eval[[]mark](p, `[...document.querySelectorAll('.events .mark')].map(m => ({
			row: m.closest('tr').dataset.index, rule: m.dataset.rule, href: m.querySelector('a').href,
			target: m.querySelector('a').target, rel: m.querySelector('a').rel, text: m.textContent}))`)
		want := mark{Row: "4", Rule: "after-finish", Href: "https://docs.ag-ui.com/spec/1.0/events/lifecycle", Target: "_blank", Rel: "noopener noreferrer"}
		if len(marks) != 1 || marks[0].Text == "" {
			t.Fatalf("marks %+v, want one at event 4", marks)
		}
		if got := marks[0]; got.Row != want.Row || got.Rule != want.Rule || got.Href != want.Href || got.Target != want.Target || got.Rel != want.Rel || !strings.HasPrefix(got.Text, "fatal after-finish") {
			t.Errorf("mark %+v, want %+v", got, want)
		}
		p.input(chromedp.Click(`tr[data-index="4"]`))
		p.until("event 4 in full", `document.querySelector('.event-detail').textContent.includes('Fatal: after-finish')`)
		p.until("the state after it", `document.querySelector('.state').dataset.at === '4'`)
	})
}

// Stepping through a run shows the state after each event, with the
// places the event changed highlighted and said.
func TestInspectorStepsTheState(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		runScenario(t, insp.proxy, "thread-a", "normal")
		p.openInspector(insp.url, "#run=1")
		p.waitShown("1")
		for range 3 {
			p.click("Next")
		}
		p.until("the state after the spike", `document.querySelector('.state').dataset.at === '2'`)
		changed := eval[[]string](p, `[...document.querySelectorAll('.tree li.changed')].map(l => l.dataset.pointer + ' ' + l.textContent)`)
		if !reflect.DeepEqual(changed, []string{"/services/0/latency latency: 145changed"}) {
			t.Errorf("changed lines %q", changed)
		}
		if says := eval[string](p, `document.querySelector('.state .state-at').textContent`); says != "After event #2. It changed 1 place, marked changed below." {
			t.Errorf("the state says %q", says)
		}
		p.click("Previous")
		p.until("the state after the snapshot", `document.querySelector('.state').dataset.at === '1'`)
		p.input(chromedp.Click(`.tree button[data-pointer="/services/0"]`))
		p.until("API's branch open", `document.querySelector('.tree button[data-pointer="/services/0"]').getAttribute('aria-expanded') === 'true'`)
		if got := eval[string](p, `document.querySelector('.tree li[data-pointer="/services/0/latency"]').textContent`); got != "latency: 60" {
			t.Errorf("before the spike: %q", got)
		}
		if !strings.HasSuffix(eval[string](p, `location.hash`), "event=1&run=1") {
			t.Errorf("the URL does not keep the event: %s", eval[string](p, `location.hash`))
		}
	})
}

// An interrupted run and the run that resumed it link to each other, and
// both show the question and the answer.
func TestInspectorLinksAnInterruptAndItsAnswer(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		asked := approveThrough(t, insp, "thread-a")

		p.openInspector(insp.url, "")
		p.waitRun("2", "ok")
		p.chooseRun("1")
		question := asked.Questions[0].Message
		p.until("the question and its answer", fmt.Sprintf(`(() => {
			const t = document.querySelector('.interrupt.asked')?.textContent ?? '';
			return t.includes(%q) && t.includes('Answered by run 2') && t.includes('resolved, {"approved":true}');
		})()`, question))
		p.input(chromedp.Click(`.interrupt a.run-ref[data-run="2"]`))
		p.waitShown("2")
		p.until("the answer and its question", fmt.Sprintf(`(() => {
			const t = document.querySelector('.interrupt.answers')?.textContent ?? '';
			return t.includes('It resumes run 1') && t.includes(%q) && t.includes('resolved, {"approved":true}');
		})()`, question))
		p.click("Last")
		p.until("the tool call answered", `document.querySelector('.call[data-call="call-rollback"]')?.textContent.includes('Rolled API back')`)
		p.input(chromedp.Click(`.interrupt a.run-ref[data-run="1"]`))
		p.waitShown("1")
	})
}

// A client that leaves mid-run, as a user pressing Stop does, is shown
// as the client's cancel, not as a failure of the agent.
func TestInspectorShowsAClientsCancel(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := startProxyInspector(t, baseURL+"/api/agent-analysis") // the suite's server keeps the slow scenario's delays
		p.openInspector(insp.url, "")
		resp, err := http.Post(insp.proxy, "application/json", strings.NewReader(string(agentInput("thread-a", "run-1", "slow", nil, nil, nil))))
		if err != nil {
			t.Fatal(err)
		}
		first, err := bufio.NewReader(resp.Body).ReadString('\n')
		if err != nil || !strings.Contains(first, "RUN_STARTED") {
			t.Fatalf("first line %q: %v", first, err)
		}
		resp.Body.Close() // Stop
		p.waitRun("1", "cancelled")
		if got := eval[string](p, runLinkJS("1")+`.querySelector('.verdict').textContent`); got != "cancelled by the client" {
			t.Errorf("verdict %q", got)
		}
		p.chooseRun("1")
		p.until("the ending", `document.querySelector('.run-head .ending')?.textContent.includes('the client cancelled after')`)
	})
}

// copyProbe stands in for the clipboard, which a headless browser does
// not give a page without focus, and keeps what was written.
const copyProbe = `(() => {
	window.__copied = [];
	if (navigator.clipboard) navigator.clipboard.writeText = (text) => { window.__copied.push(text); return Promise.resolve(); };
})()`

// The inspector by keyboard alone: the skip link, a run, Copy, the
// timeline's keys; focus is visible on each stop.
func TestInspectorKeyboard(t *testing.T) {
	atEachViewport(t, func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		runScenario(t, insp.proxy, "thread-a", "normal")
		p.onNewDocument(copyProbe)
		p.openInspector(insp.url, "")
		p.waitRun("1", "ok")

		p.tab("a:Skip to content")
		p.press(kb.Enter)
		p.expectFocus("#main")
		p.press(kb.Tab)
		p.until("focus on run 1", `document.activeElement.dataset.run === '1'`)
		p.press(kb.Enter)
		p.waitShown("1")
		p.until("focus kept on run 1", `document.activeElement.dataset.run === '1'`)
		p.tab("button:Copy script")
		p.press(kb.Enter)
		p.until("the copy said", `document.getElementById('status').textContent === "Copied run 1's script."`)
		if copied := eval[[]string](p, `window.__copied`); len(copied) != 1 || !strings.Contains(copied[0], `"RUN_STARTED"`) {
			t.Errorf("copied %q", copied)
		}
		p.tab("button:Copy capture", "button:Copy check command", "a:Download script", "a:Download capture", "button:Next", "button:Last", "#timeline-box")
		if eval[string](p, `getComputedStyle(document.activeElement).outlineStyle`) == "none" {
			t.Error("the timeline's focus is not visible")
		}
		for _, step := range []struct{ key, at string }{{"j", "0"}, {"j", "1"}, {kb.ArrowDown, "2"}, {kb.End, "5"}, {"k", "4"}, {kb.ArrowUp, "3"}, {kb.Home, "-1"}} {
			p.press(step.key)
			p.until("the state at "+step.at, fmt.Sprintf(`document.querySelector('.state').dataset.at === %q && document.querySelector('.events tr[aria-current]')?.dataset.index === (%q === '-1' ? undefined : %q)`, step.at, step.at, step.at))
			p.expectFocus("#timeline-box")
		}
	})
}

// Axe-core finds nothing on the inspector in either theme, at either
// size: empty, a broken run at its broken event, an interrupted run.
func TestInspectorAccessibility(t *testing.T) {
	for _, scheme := range []string{"light", "dark"} {
		t.Run(scheme, func(t *testing.T) {
			atEachViewport(t, func(t *testing.T, p *page) {
				insp := proxyInspector(t)
				p.emulateColorScheme(scheme)
				p.openInspector(insp.url, "")
				p.checkAxe("empty")
				runScenario(t, insp.proxy, "thread-a", "events-after-finish")
				runScenario(t, insp.proxy, "thread-b", "approval")
				p.waitRun("2", "interrupted")
				p.chooseRun("1")
				p.input(chromedp.Click(`tr[data-index="4"]`))
				p.until("the state at the broken event", `document.querySelector('.state').dataset.at === '4'`)
				p.checkAxe("broken run")
				p.chooseRun("2")
				p.click("Last")
				p.until("the state at the end", `document.querySelector('.state').dataset.at === '7'`)
				p.checkAxe("interrupted run")
				if o := p.overflow(); o > 0 {
					t.Errorf("the page overflows the %d px viewport by %d px", p.vp.width, o)
				}
			})
		})
	}
}

// A run's capture and script, opened offline (inspect FILE, and the Open
// file control), show the same timeline as the run did live: index, type,
// size and marks of every row, comments included.
func TestInspectorOfflineEqualsLive(t *testing.T) {
	atViewports(t, viewports[:1], func(t *testing.T, p *page) {
		insp := proxyInspector(t)
		runScenario(t, insp.proxy, "thread-a", "keep-alive-comments")
		runScenario(t, insp.proxy, "thread-b", "events-after-finish")
		dir := t.TempDir()
		for _, id := range []string{"1", "2"} {
			settledRun(t, insp, id)
			for _, what := range []string{"script", "capture"} {
				resp, err := http.Get(insp.url + "/api/runs/" + id + "/" + what)
				if err != nil {
					t.Fatal(err)
				}
				data, _ := readAll(resp)
				name := map[string]string{"script": ".json", "capture": ".sse"}[what]
				os.WriteFile(filepath.Join(dir, "run-"+id+name), data, 0o644)
			}
		}
		p.openInspector(insp.url, "")
		live := map[string][]timelineRow{}
		for _, id := range []string{"1", "2"} {
			p.waitRun(id, map[string]string{"1": "ok", "2": "failed"}[id])
			p.chooseRun(id)
			live[id] = p.timelineRows()
		}
		if n := len(live["1"]); n < 3 || live["1"][1].Type != "comment" && live["1"][2].Type != "comment" {
			t.Errorf("the comments' run has no comment rows: %+v", live["1"])
		}

		// The captures through Open file, on the live inspector.
		p.do(chromedp.SetUploadFiles(`#open-file`, []string{filepath.Join(dir, "run-1.sse"), filepath.Join(dir, "run-2.sse")}))
		p.waitRun("4", "failed")
		p.until("the status", `document.getElementById('status').textContent.startsWith('Opened run-')`)
		for id, from := range map[string]string{"3": "1", "4": "2"} {
			p.chooseRun(id)
			if got := p.timelineRows(); !reflect.DeepEqual(got, live[from]) {
				t.Errorf("run-%s.sse opened: %+v\nlive: %+v", from, got, live[from])
			}
		}

		// The scripts through inspect FILE.
		offline := startInspect(t, filepath.Join(dir, "run-1.json"), filepath.Join(dir, "run-2.json"))
		p.openInspector(offline.url, "")
		for id, from := range map[string]string{"1": "1", "2": "2"} {
			p.chooseRun(id)
			if got := p.timelineRows(); !reflect.DeepEqual(got, live[from]) {
				t.Errorf("inspect run-%s.json: %+v\nlive: %+v", from, got, live[from])
			}
		}
	})
}

// An agent's text that holds markup shows as characters: no element is
// made of it, nothing it names is fetched, nothing of it runs.
func TestInspectorShowsHostileTextAsText(t *testing.T) {
	atViewports(t, viewports[:1], func(t *testing.T, p *page) {
		img, scr := `<img src=x onerror="window.__pwned=1">`, `<script>window.__pwned=2</script>`
		thread := `<img src=x onerror=window.__pwned=3>`
		ev := func(v map[string]any) map[string]any { return map[string]any{"event": v} }
		script := map[string]any{
			"name":  "hostile",
			"input": map[string]any{"threadId": thread, "runId": "r1", "messages": []any{map[string]any{"id": "u1", "role": "user", "content": scr}}},
			"stream": []any{
				ev(map[string]any{"type": "RUN_STARTED", "threadId": thread, "runId": "r1"}),
				map[string]any{"comment": img},
				ev(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
				ev(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": img}),
				ev(map[string]any{"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
				ev(map[string]any{"type": "STATE_SNAPSHOT", "snapshot": map[string]any{img: scr}}),
				ev(map[string]any{"type": "RUN_FINISHED", "threadId": thread, "runId": "r1"}),
			},
		}
		data, _ := json.Marshal(script)
		file := filepath.Join(t.TempDir(), "hostile.json")
		os.WriteFile(file, data, 0o644)
		offline := startInspect(t, file)
		p.openInspector(offline.url, "")
		p.waitRun("1", "ok")
		p.chooseRun("1")
		p.click("Last")
		p.until("the end of the run", `document.querySelector('.state').dataset.at === '5'`)
		p.input(chromedp.Click(`tr[data-index="2"]`))
		p.until("the event in full", `document.querySelector('.state').dataset.at === '2'`)
		p.click("Last")
		p.until("the end again", `document.querySelector('.state').dataset.at === '5'`)
		text := eval[string](p, `document.querySelector('main').textContent`)
		for _, s := range []string{img, scr, thread} {
			if !strings.Contains(text, s) {
				t.Errorf("%q is not shown as characters", s)
			}
		}
		made := eval[int](p, `document.querySelectorAll('main img, main script, [onerror]').length`)
		fetched := eval[[]string](p, `performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('/x'))`)
		if made != 0 || len(fetched) != 0 || eval[bool](p, `window.__pwned !== undefined`) {
			t.Errorf("the agent's markup made %d elements, fetched %v, ran: %v", made, fetched, eval[bool](p, `window.__pwned !== undefined`))
		}
	})
}

// A message of 5,000 characters shows its last 2,000 and says so; the
// button shows all of it, and the next event keeps it whole.
func TestInspectorClipsALongTextUntilAsked(t *testing.T) {
	atViewports(t, viewports[:1], func(t *testing.T, p *page) {
		ev := func(v map[string]any) map[string]any { return map[string]any{"event": v} }
		script := map[string]any{
			"name": "long",
			"stream": []any{
				ev(map[string]any{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}),
				ev(map[string]any{"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}),
				ev(map[string]any{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "head " + strings.Repeat("é", 4990) + " tail"}),
				ev(map[string]any{"type": "TEXT_MESSAGE_END", "messageId": "m1"}),
				ev(map[string]any{"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}),
			},
		}
		data, _ := json.Marshal(script)
		file := filepath.Join(t.TempDir(), "long.json")
		os.WriteFile(file, data, 0o644)
		p.openInspector(startInspect(t, file).url, "")
		p.waitRun("1", "ok")
		p.chooseRun("1")
		p.input(chromedp.Click(`tr[data-index="2"]`))
		p.until("the message at its delta", `document.querySelector('.state').dataset.at === '2'`)
		shown := eval[string](p, `document.querySelector('.message .text').textContent`)
		if n := len([]rune(shown)); n != 2000 || !strings.HasSuffix(shown, " tail") {
			t.Errorf("clipped: %d characters shown, ending %q", n, shown[len(shown)-8:])
		}
		if note := eval[string](p, `document.querySelector('.message .clipped').textContent`); !strings.Contains(note, "3,000 characters before") || !strings.Contains(note, "Show all 5,000 characters") {
			t.Errorf("the note says %q", note)
		}
		p.click("Show all 5,000 characters")
		p.until("the whole message", `document.querySelector('.message .text').textContent.startsWith('head ')`)
		p.click("Next")
		p.until("the next event", `document.querySelector('.state').dataset.at === '3'`)
		if n := eval[int](p, `[...document.querySelector('.message .text').textContent].length`); n != 5000 || eval[int](p, `document.querySelectorAll('.clipped').length`) != 0 {
			t.Errorf("after the next event: %d characters, %d notes", n, eval[int](p, `document.querySelectorAll('.clipped').length`))
		}
	})
}

func readAll(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	var b strings.Builder
	_, err := bufio.NewReader(resp.Body).WriteTo(&b)
	return []byte(b.String()), err
}
