package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// getJSON reads a JSON answer of the inspector.
func getJSON(t *testing.T, url string, v any) {
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

// inspect opens the files it is given, names those it skips, and serves
// them until stopped.
func TestInspectCommand(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.sse"), []byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644)
	out, lines := linesOf(t)
	errOut, errLines := linesOf(t)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"inspect", "-addr", "127.0.0.1:0", "-web", t.TempDir(), dir}, out, errOut)
		out.Close()
		errOut.Close()
	}()
	var said []string
	for line := range errLines {
		said = append(said, line)
		if len(said) == 2 {
			break
		}
	}
	if !strings.Contains(said[0], "notes.txt: skipped") || !strings.Contains(said[1], "no inspector.wasm") {
		t.Errorf("said %q", said)
	}
	first := <-lines
	url, ok := strings.CutPrefix(first, "inspect: 1 runs, at ")
	if !ok {
		t.Fatalf("%q", first)
	}
	var list struct{ Runs []runs.Run }
	getJSON(t, url+"api/runs", &list)
	if len(list.Runs) != 1 || list.Runs[0].Status != runs.OK || list.Runs[0].Source != filepath.Join(dir, "ok.sse") {
		t.Errorf("runs %+v", list.Runs)
	}
	stop()
	if err := <-done; err != nil {
		t.Errorf("exit: %v", err)
	}
	if err := run(t.Context(), []string{"inspect", "-keep", "0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-keep must be at least 1") {
		t.Errorf("-keep 0: %v", err)
	}
}

// proxy -inspect serves the runs as they pass; the check command the
// inspector gives for a run, run by a shell, asks for the same run again.
func TestProxyInspect(t *testing.T) {
	api := servertest.Ours(t)
	out, lines := linesOf(t)
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"proxy", "-upstream", api, "-addr", "127.0.0.1:0", "-inspect", "127.0.0.1:0", "-web", t.TempDir()}, out, io.Discard)
		out.Close()
	}()
	addr, _, _ := strings.Cut(strings.TrimPrefix(<-lines, "proxy: listening on "), ",")
	inspector, ok := strings.CutPrefix(<-lines, "proxy: the inspector at ")
	if !ok {
		t.Fatalf("no inspector line")
	}
	resp, err := http.Post(addr, "application/json", strings.NewReader(`{"threadId":"t1","runId":"r1","messages":[],"forwardedProps":{"scenario":"normal"}}`))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	<-lines // the run's line: the inspector has it by then
	var list struct{ Runs []runs.Run }
	getJSON(t, inspector+"api/runs", &list)
	if len(list.Runs) != 1 || list.Runs[0].Status != runs.OK || list.Runs[0].Events != 6 {
		t.Fatalf("runs %+v", list.Runs)
	}
	cmdResp, err := http.Get(inspector + "api/runs/" + list.Runs[0].ID + "/command")
	if err != nil {
		t.Fatal(err)
	}
	command, _ := io.ReadAll(cmdResp.Body)
	cmdResp.Body.Close()
	stop()
	if err := <-done; err != nil {
		t.Errorf("exit: %v", err)
	}

	// The command, through a shell, with this test's binary standing in
	// for agent-analysis: the input arrives on standard input.
	binDir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(binDir, "agent-analysis"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no POSIX shell to run the command")
	}
	sh := exec.Command("sh", "-c", string(command))
	sh.Env = append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	got, err := sh.CombinedOutput()
	if err != nil || !strings.Contains(string(got), "ok   stdin") || !strings.Contains(string(got), "6 events") {
		t.Errorf("%s\n%v\n%s", command, err, got)
	}
}
