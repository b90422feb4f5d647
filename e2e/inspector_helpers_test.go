package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// inspectorProcess is the built binary serving the inspector: proxy
// -inspect in front of an agent, or inspect over files.
type inspectorProcess struct {
	cmd   *exec.Cmd
	done  chan error
	url   string // the inspector: http://127.0.0.1:port
	proxy string // proxy -inspect's proxy: http://127.0.0.1:port/
}

// startProxyInspector runs proxy -inspect in front of upstream, both on
// free loopback ports, until the test ends.
func startProxyInspector(t testing.TB, upstream string, args ...string) *inspectorProcess {
	t.Helper()
	return startInspectorProcess(t, append([]string{"proxy", "-upstream", upstream, "-addr", "127.0.0.1:0",
		"-inspect", "127.0.0.1:0", "-web", webDir}, args...)...)
}

// startInspect runs inspect over files, on a free loopback port.
func startInspect(t testing.TB, files ...string) *inspectorProcess {
	t.Helper()
	return startInspectorProcess(t, append([]string{"inspect", "-addr", "127.0.0.1:0", "-web", webDir}, files...)...)
}

func startInspectorProcess(t testing.TB, args ...string) *inspectorProcess {
	t.Helper()
	cmd := exec.Command(serverBin, args...)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = dieWithUs()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &inspectorProcess{cmd: cmd, done: make(chan error, 1)}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "proxy: listening on "):
				p.proxy = strings.TrimSuffix(strings.Fields(line)[3], ",") + "/"
			case strings.HasPrefix(line, "proxy: the inspector at "):
				p.url = strings.TrimSuffix(strings.TrimPrefix(line, "proxy: the inspector at "), "/")
				close(ready)
			case strings.HasPrefix(line, "inspect: ") && strings.Contains(line, " runs, at "):
				p.url = strings.TrimSuffix(line[strings.Index(line, " at ")+4:], "/")
				close(ready)
			}
		}
		p.done <- cmd.Wait()
	}()
	select {
	case <-ready:
	case err := <-p.done:
		t.Fatalf("%v exited: %v", args, err)
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v did not start", args)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	return p
}

// openInspector loads the inspector (at a run, when hash names one) and
// waits until the page has mounted, its live feed is connected and it has
// read the list of runs.
func (p *page) openInspector(url, hash string) {
	p.t.Helper()
	p.base = url
	p.do(chromedp.Navigate(url + "/" + hash))
	p.waitFor("the inspector to start", `document.querySelector('.inspector[data-ready="true"]') !== null`, 2*load)
	p.until("the live feed", `document.querySelector('.live')?.textContent === 'Live: connected'`)
	p.until("the list of runs", `!document.querySelector('.runs')?.textContent.includes('Reading the runs')`)
}

// runLinkJS is the list's link to run id.
func runLinkJS(id string) string {
	return fmt.Sprintf(`document.querySelector('a.run-link[data-run=%q]')`, id)
}

// waitRun waits until the list shows run id with a status.
func (p *page) waitRun(id, status string) {
	p.t.Helper()
	p.until("run "+id+" "+status, runLinkJS(id)+fmt.Sprintf(`?.dataset.status === %q`, status))
}

// chooseRun clicks run id in the list and waits until its events, state
// and conversation are read.
func (p *page) chooseRun(id string) {
	p.t.Helper()
	p.input(chromedp.Click(fmt.Sprintf(`a.run-link[data-run=%q]`, id)))
	p.waitShown(id)
}

// waitShown waits until run id is shown with its detail, all its events
// read, and the state read for the selected event.
func (p *page) waitShown(id string) {
	p.t.Helper()
	p.until("run "+id+" shown", fmt.Sprintf(`(() => {
		const v = document.querySelector('.run-view[data-run=%q]');
		return v && !v.textContent.includes('Reading') && !v.querySelector('.timeline .count').textContent.includes('reading more');
	})()`, id))
}

// timelineRow is a timeline row as the tests compare it.
type timelineRow struct {
	Index string `json:"index"`
	Type  string `json:"type"`
	Size  string `json:"size"`
	Marks string `json:"marks"`
}

// timelineRows are the rows drawn (all of a short run's).
func (p *page) timelineRows() []timelineRow {
	return eval[[]timelineRow](p, `[...document.querySelectorAll('.events tbody tr:not(.spacer)')].map(r => ({
		index: r.cells[0].textContent, type: r.classList.contains('comment') ? 'comment' : r.cells[2].textContent,
		size: r.classList.contains('comment') ? r.cells[2].textContent : r.cells[3].textContent,
		marks: r.classList.contains('comment') ? '' : [...r.cells[4].querySelectorAll('.mark')].map(m => m.textContent + ' ' + (m.querySelector('a')?.href ?? '')).join(' | '),
	}))`)
}

// agentInput is a RunAgentInput for this project's server: a scenario on
// a thread, with the state and messages given.
func agentInput(thread, run, scenario string, state, messages json.RawMessage, resume any) []byte {
	if state == nil {
		state = json.RawMessage(`{}`)
	}
	if messages == nil {
		messages = json.RawMessage(`[]`)
	}
	in := map[string]any{"threadId": thread, "runId": run, "state": state, "messages": messages, "tools": []any{}, "context": []any{},
		"forwardedProps": map[string]any{"scenario": scenario}}
	if resume != nil {
		in["resume"] = resume
	}
	b, _ := json.Marshal(in)
	return b
}

// postRun posts an input through the proxy and reads the whole answer,
// as a client that waits for the stream's end does.
func postRun(t testing.TB, proxy string, input []byte) string {
	t.Helper()
	resp, err := http.Post(proxy, "application/json", bytes.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("posting a run: %v %s %s", err, resp.Status, body)
	}
	return string(body)
}

// runScenario posts a scenario on a fresh thread through the proxy.
func runScenario(t testing.TB, proxy, thread, scenario string) string {
	t.Helper()
	return postRun(t, proxy, agentInput(thread, "run-1", scenario, nil, nil, nil))
}

// apiJSON reads the inspector's API.
func apiJSON(t testing.TB, url string, v any) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// settledRun is a run's detail once the inspector has seen it end: the
// client has the last byte before the proxy has seen the agent close, and
// the judge, off the bytes' path, may not have told the inspector of the
// run at all yet (404).
func settledRun(t testing.TB, insp *inspectorProcess, id string) runs.Detail {
	t.Helper()
	url := insp.url + "/api/runs/" + id
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		var d runs.Detail
		err = json.NewDecoder(resp.Body).Decode(&d)
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusOK && err != nil:
			t.Fatalf("GET %s: %v", url, err)
		case resp.StatusCode == http.StatusOK && d.Status != runs.Running:
			return d
		case resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusNotFound:
			t.Fatalf("GET %s: %s", url, resp.Status)
		case time.Now().After(deadline):
			t.Fatalf("run %s not ended after 10 s: %s, %+v", id, resp.Status, d)
		}
	}
}

// approveThrough runs the approval scenario through the proxy on a thread,
// then the resume that approves it, as a client does: the state and the
// messages the interrupted run ended with, and the answer to its question.
// It returns the interrupted run's detail.
func approveThrough(t testing.TB, insp *inspectorProcess, thread string) runs.Detail {
	t.Helper()
	var before struct{ Runs []runs.Run }
	apiJSON(t, insp.url+"/api/runs", &before)
	id := strconv.Itoa(len(before.Runs) + 1)
	runScenario(t, insp.proxy, thread, "approval")
	asked := settledRun(t, insp, id)
	if asked.Status != runs.Interrupted || len(asked.Questions) != 1 {
		t.Fatalf("run %s: %+v", id, asked)
	}
	var at runs.At
	apiJSON(t, fmt.Sprintf("%s/api/runs/%s/at/%d", insp.url, id, asked.Events-1), &at)
	resume := []map[string]any{{"interruptId": asked.Questions[0].ID, "status": "resolved", "payload": map[string]bool{"approved": true}}}
	postRun(t, insp.proxy, agentInput(thread, "run-2", "approval", at.State, at.Messages, resume))
	return asked
}
