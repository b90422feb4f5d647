package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestCheckCommand(t *testing.T) {
	var out, errs bytes.Buffer
	err := run(context.Background(), []string{"check", "-expect", "../../../check/testdata/scripts"}, &out, &errs)
	if !errors.Is(err, errFailed) {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 5 || lines[0] != "FAIL after-finish: after-finish at event 2: STATE_DELTA after run \"r\" finished: only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED" ||
		lines[1] != "ok   delta-applies" || lines[4] != "2 passed, 2 failed (1 notes at SHOULD or wording level: -v lists them)" {
		t.Errorf("output:\n%s", out.String())
	}

	out.Reset()
	if err := run(context.Background(), []string{"check", "-json", "../../../check/testdata/scripts/valid.jsonl"}, &out, io.Discard); err != nil {
		t.Fatalf("a valid script: %v", err)
	}
	var report struct{ Passed, Failed int }
	if json.Unmarshal(out.Bytes(), &report) != nil || report.Passed != 1 || report.Failed != 0 {
		t.Errorf("json: %s", out.String())
	}

	for _, args := range [][]string{{"check"}, {"check", "no-such-dir"}, {"check", "-nope", "x"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil || errors.Is(err, errFailed) {
			t.Errorf("%v: %v", args, err)
		}
	}
	errs.Reset()
	if err := run(context.Background(), []string{"check", "-h"}, io.Discard, &errs); err != nil || !strings.Contains(errs.String(), "Usage: agent-analysis check") {
		t.Errorf("-h: %v %s", err, errs.String())
	}
}
