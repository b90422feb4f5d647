package doccheck

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// flag is one flag as -h prints it.
type flag struct {
	bool bool   // printed without a type: a boolean
	def  string // the "(default …)" shown, unquoted; "" when none is
}

var (
	flagLine   = regexp.MustCompile(`^  -(\S+)(?: (\S+))?(?:\t.*)?$`)
	defaultsTo = regexp.MustCompile(`\(default (.+)\)$`)
)

// usage parses a flag set's PrintDefaults output.
func usage(t *testing.T, out string) map[string]flag {
	t.Helper()
	flags := map[string]flag{}
	var name string
	var help []string
	done := func() {
		if name == "" {
			return
		}
		f := flags[name]
		if m := defaultsTo.FindStringSubmatch(strings.Join(help, " ")); m != nil {
			f.def = m[1]
			if s, err := strconv.Unquote(f.def); err == nil {
				f.def = s
			}
		}
		flags[name] = f
	}
	for _, l := range strings.Split(out, "\n") {
		if m := flagLine.FindStringSubmatch(l); m != nil {
			done()
			name, help = m[1], nil
			flags[name] = flag{bool: m[2] == ""}
			if _, inline, ok := strings.Cut(l, "\t"); ok {
				help = append(help, inline)
			}
			continue
		}
		if name != "" && strings.HasPrefix(l, "    \t") {
			help = append(help, strings.TrimSpace(l))
		}
	}
	done()
	if len(flags) == 0 {
		t.Fatalf("no flags in:\n%s", out)
	}
	return flags
}

// Every row of the README's flags table is a flag of the built binary, as
// its -h prints it, with its default; and every flag has its row.
func TestFlagsTableMatchesTheBinary(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "agent-analysis")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, "./server/cmd/agent-analysis")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	commands := []string{"serve", "check", "record", "proxy", "inspect"}
	binary := map[string]map[string]flag{}
	for _, c := range commands {
		out, err := exec.Command(bin, c, "-h").CombinedOutput()
		if err != nil {
			t.Fatalf("%s -h: %v\n%s", c, err, out)
		}
		binary[c] = usage(t, string(out))
	}

	documented := map[string]map[string]bool{}
	for _, r := range rows(section(t, read(t, "README.md"), "## Flags")) {
		if len(r) != 4 {
			t.Errorf("flags table: row %q has %d cells, want 4 (command, flag, default, meaning)", r, len(r))
			continue
		}
		name := strings.TrimPrefix(unquote(r[1]), "-")
		for _, c := range strings.Split(r[0], ", ") {
			f, ok := binary[c][name]
			if !ok {
				t.Errorf("flags table: %s has no flag -%s (%s -h)", c, name, c)
				continue
			}
			if documented[c] == nil {
				documented[c] = map[string]bool{}
			}
			if documented[c][name] {
				t.Errorf("flags table: %s -%s has two rows", c, name)
			}
			documented[c][name] = true
			want := "`" + f.def + "`"
			switch {
			case f.def == "" && f.bool:
				want = "off"
			case f.def == "":
				want = "none"
			}
			if r[2] != want {
				t.Errorf("flags table: %s -%s: default %s, want %s (as %s -h prints it)", c, name, r[2], want, c)
			}
		}
	}
	for _, c := range commands {
		for name := range binary[c] {
			if !documented[c][name] {
				t.Errorf("flags table: no row for %s -%s", c, name)
			}
		}
	}
}
