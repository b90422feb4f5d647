package doccheck

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A bound is one row of the guide's limits table and where its value is
// set in the code. The value is read from the source, so that an
// unexported constant, a struct literal's field and a default given in a
// call are held as well as an exported constant.
type bound struct {
	row    string // the row's first cell, as the table writes it
	file   string // the Go file that sets it, from the repository's root
	find   func(*ast.File) ast.Expr
	format func(v int64) string // as the table writes it; for a flag, as -h prints its default
	flag   string               // a bound a flag sets: the table names the flag, the README its default
}

// The guide's limits, each held to the code.
var bounds = []bound{
	{row: "one frame of the binary transport, its length included", file: "agui/proto/reader.go", find: constNamed("MaxFrameBytes"), format: bytes},
	{row: "one event's JSON", file: "agui/limits.go", find: constNamed("MaxEventBytes"), format: bytes},
	{row: "messages, calls, spans, steps and subagents open at once", file: "agui/limits.go", find: constNamed("MaxOpen"), format: count},
	{row: "runs on one stream", file: "agui/limits.go", find: constNamed("MaxRuns"), format: count},
	{row: "messages in the conversation", file: "agui/limits.go", find: constNamed("MaxMessages"), format: count},
	{row: "one message's text or one call's arguments", file: "agui/limits.go", find: constNamed("MaxTextBytes"), format: bytes},
	{row: "all text and arguments together", file: "agui/limits.go", find: constNamed("MaxHeldBytes"), format: bytes},
	{row: "the JSON state, as JSON", file: "agui/limits.go", find: constNamed("MaxStateBytes"), format: bytes},
	{row: "nesting of any value in an event", file: "agui/jsonpatch/json.go", find: constNamed("MaxDepth"), format: count},
	{row: "warnings kept per stream", file: "agui/limits.go", find: constNamed("MaxWarnings"), format: count},
	{row: "services in the demo's state", file: "app/core/rules.go", find: constNamed("MaxServices"), format: count},
	{row: "a service's id or name", file: "app/core/rules.go", find: constNamed("maxText"), format: characters},
	{row: "operations in one delta", file: "app/core/patch.go", find: constNamed("MaxPatchOps"), format: count},
	{row: "one delta's size", file: "app/core/patch.go", find: constNamed("MaxPatchBytes"), format: bytes},
	{row: "what one delta adds to the state", file: "app/core/patch.go", find: constNamed("maxGrowth"), format: bytes},
	{row: "events the Wire view lists", file: "app/core/arrival.go", find: constNamed("MaxArrivals"), format: count},
	{row: "an event's JSON the Wire view keeps", file: "app/core/arrival.go", find: constNamed("maxArrivalBytes"), format: bytes},
	{row: "Activity entries", file: "app/core/model.go", find: constNamed("MaxActivity"), format: count},
	{row: "a warning or failure text the page keeps", file: "app/core/rejection.go", find: constNamed("maxEvidence"), format: bytes},
	{row: "a `RunAgentInput` the server reads", file: "server/input.go", find: constNamed("maxBody"), format: bytes},
	{row: "inputs of over 16 KiB read at once", file: "server/input.go", find: constNamed("maxLargeReads"), format: count},
	{row: "`threadId`, `runId`", file: "server/input.go", find: constNamed("maxID"), format: characters},
	{row: "a request body's arrival, from the handler's start", file: "server/server.go", find: callArg("orDefault", "cfg.BodyTimeout", 1), format: duration},
	{row: "a request's headers", file: "server/cmd/agent-analysis/serve.go", find: field("ReadHeaderTimeout"), format: duration},
	{row: "headers and body together", file: "server/cmd/agent-analysis/serve.go", find: field("ReadTimeout"), format: duration},
	{row: "an idle kept-alive connection", file: "server/cmd/agent-analysis/serve.go", find: field("IdleTimeout"), format: duration},
	{row: "each event write of a stream, and a refusal of a stream's request", file: "server/server.go", find: callArg("orDefault", "cfg.WriteTimeout", 1), format: duration},
	{row: "any other answer accepting nothing: a page, file, wasm, `/healthz`, redirect, preflight or 405", file: "server/server.go", find: callArg("orDefault", "cfg.ProgressTimeout", 1), format: duration},
	{row: "streams at once", file: "server/server.go", find: constNamed("DefaultMaxStreams"), flag: "-max-streams", format: goInt},
	{row: "shutdown, for open requests", file: "server/cmd/agent-analysis/shutdown.go", find: callArg("context.WithTimeout", "context.Background()", 1), format: duration},
	{row: "a script file, a `-input` file, a recording", file: "kit/script/script.go", find: constNamed("MaxBytes"), format: bytes},
	{row: "a frame's `afterMs` delay; `record -timeout`", file: "kit/script/script.go", find: constNamed("MaxAfter"), format: duration},
	{row: "a live run (`check -url`, `record`)", file: "kit/agent/agent.go", find: constNamed("DefaultTimeout"), flag: "-timeout", format: goDuration},
	{row: "what `proxy` holds waiting to be judged", file: "kit/proxy/proxy.go", find: constNamed("MaxBacklog"), format: bytes},
	{row: "a request body `proxy` judges", file: "kit/proxy/proxy.go", find: constNamed("MaxInput"), format: bytes},
	{row: "threads whose open interrupts `proxy` remembers", file: "kit/proxy/proxy.go", find: constNamed("DefaultThreads"), flag: "-threads", format: goInt},
	{row: "runs the inspector keeps", file: "kit/inspect/store.go", find: constNamed("DefaultKeep"), flag: "-keep", format: goInt},
	{row: "one run's events the inspector keeps, each with some 100 bytes for keeping it", file: "kit/inspect/store.go", find: constNamed("MaxRunBytes"), format: bytes},
	{row: "all the inspector keeps, inputs included", file: "kit/inspect/store.go", find: constNamed("MaxBytes"), format: bytes},
	{row: "failures `proxy -sarif` keeps", file: "server/cmd/agent-analysis/proxy.go", find: constNamed("maxSARIFResults"), format: count},
}

// The guide states each bound once, in its limits table, with the value
// the code sets. A bound a flag sets names the flag; its default, in the
// README's flags table, is the code's (and TestFlagsTableMatchesTheBinary
// holds that table to the binary).
func TestLimitsMatchTheCode(t *testing.T) {
	defaults := map[string]string{}
	for _, r := range rows(section(t, read(t, "README.md"), "## Flags")) {
		if len(r) == 4 {
			defaults[unquote(r[1])] = unquote(r[2])
		}
	}
	table := map[string][]string{}
	for _, r := range rows(section(t, read(t, "docs/agent-analysis.md"), "## Limits")) {
		if len(r) != 4 {
			t.Errorf("limits table: row %q has %d cells, want 4 (what, bound, set by, past it)", r, len(r))
			continue
		}
		table[r[0]] = r
	}
	held := map[string]bool{}
	for _, b := range bounds {
		held[b.row] = true
		r, ok := table[b.row]
		if !ok {
			t.Errorf("limits table: no row %q (%s)", b.row, b.file)
			continue
		}
		if err := namesIn(b.file, r[2]); err != nil {
			t.Errorf("limits table, %q: set by %s: %v", b.row, r[2], err)
		}
		v, err := valueIn(b.file, b.find)
		if err != nil {
			t.Errorf("limits table, %q: %v", b.row, err)
			continue
		}
		if b.flag != "" {
			if r[1] != "`"+b.flag+"`" {
				t.Errorf("limits table, %q: %s, want `%s`", b.row, r[1], b.flag)
			}
			if d := defaults[b.flag]; d != b.format(v) {
				t.Errorf("flags table: %s defaults to %q, but %s sets %s", b.flag, d, b.file, b.format(v))
			}
			continue
		}
		if want := b.format(v); r[1] != want {
			t.Errorf("limits table, %q: %s, want %s (%s)", b.row, r[1], want, b.file)
		}
	}
	for row := range table {
		if !held[row] {
			t.Errorf("limits table: row %q is held to no code: add it to bounds in %s", row, "internal/doccheck/limits_test.go")
		}
	}
}

var (
	spanned = regexp.MustCompile("`([^`]+)`")
	goName  = regexp.MustCompile(`^(?:([a-z]\w*)\.)?([A-Za-z_]\w*)$`)
)

// namesIn checks a limits row's "set by" cell against the file the
// bound's value is read from: a Go file it names is that file, and each
// Go name it gives (maxBody, core.MaxServices) is an identifier of that
// file, qualified, if at all, by the file's package name.
func namesIn(file, cell string) error {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(root, file), nil, 0)
	if err != nil {
		return err
	}
	idents := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			idents[id.Name] = true
		}
		return true
	})
	for _, m := range spanned.FindAllStringSubmatch(cell, -1) {
		name := m[1]
		if strings.HasSuffix(name, ".go") {
			if name != file {
				return fmt.Errorf("%s is not where the bound is set, %s", name, file)
			}
			continue
		}
		g := goName.FindStringSubmatch(name)
		if g == nil {
			continue // a tag rule or a flag, not a Go name
		}
		if g[1] != "" && g[1] != f.Name.Name {
			return fmt.Errorf("%s: %s is package %s", name, file, f.Name.Name)
		}
		if !idents[g[2]] {
			return fmt.Errorf("%s is no name of %s", name, file)
		}
	}
	return nil
}

// valueIn finds an expression in a Go file and evaluates it as a
// constant.
func valueIn(file string, find func(*ast.File) ast.Expr) (int64, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Join(root, file), nil, 0)
	if err != nil {
		return 0, err
	}
	e := find(f)
	if e == nil {
		return 0, fmt.Errorf("not found in %s", file)
	}
	v, err := eval(f, e)
	if err != nil {
		return 0, fmt.Errorf("%s: %s: %v", file, types.ExprString(e), err)
	}
	n, ok := constant.Int64Val(constant.ToInt(v))
	if !ok {
		return 0, fmt.Errorf("%s: %s is not an integer", file, types.ExprString(e))
	}
	return n, nil
}

// eval evaluates a constant expression of literals, the file's own
// constants and the time package's units.
func eval(f *ast.File, e ast.Expr) (constant.Value, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		return constant.MakeFromLiteral(e.Value, e.Kind, 0), nil
	case *ast.ParenExpr:
		return eval(f, e.X)
	case *ast.Ident:
		if d := constNamed(e.Name)(f); d != nil {
			return eval(f, d)
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok && pkg.Name == "time" {
			if d, ok := units[e.Sel.Name]; ok {
				return constant.MakeInt64(int64(d)), nil
			}
		}
	case *ast.BinaryExpr:
		x, err := eval(f, e.X)
		if err != nil {
			return nil, err
		}
		y, err := eval(f, e.Y)
		if err != nil {
			return nil, err
		}
		if e.Op == token.SHL {
			n, _ := constant.Uint64Val(y)
			return constant.Shift(x, token.SHL, uint(n)), nil
		}
		return constant.BinaryOp(x, e.Op, y), nil
	}
	return nil, fmt.Errorf("cannot evaluate %s", types.ExprString(e))
}

var units = map[string]time.Duration{
	"Nanosecond": time.Nanosecond, "Microsecond": time.Microsecond, "Millisecond": time.Millisecond,
	"Second": time.Second, "Minute": time.Minute, "Hour": time.Hour,
}

// constNamed finds the value of the constant name, declared at the file's
// top level.
func constNamed(name string) func(*ast.File) ast.Expr {
	return func(f *ast.File) ast.Expr {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				for i, n := range v.Names {
					if n.Name == name && i < len(v.Values) {
						return v.Values[i]
					}
				}
			}
		}
		return nil
	}
}

// field finds the value given to key in a composite literal.
func field(key string) func(*ast.File) ast.Expr {
	return func(f *ast.File) (found ast.Expr) {
		ast.Inspect(f, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok && found == nil {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == key {
					found = kv.Value
				}
			}
			return found == nil
		})
		return found
	}
}

// callArg finds argument i of the call of fun whose first argument reads
// first.
func callArg(fun, first string, i int) func(*ast.File) ast.Expr {
	return func(f *ast.File) (found ast.Expr) {
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && found == nil && types.ExprString(c.Fun) == fun &&
				len(c.Args) > i && types.ExprString(c.Args[0]) == first {
				found = c.Args[i]
			}
			return found == nil
		})
		return found
	}
}

// count is a number as the docs write it: 1,000.
func count(v int64) string {
	s := strconv.FormatInt(v, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func characters(v int64) string { return count(v) + " characters" }

// bytes is a size in the largest binary unit that divides it.
func bytes(v int64) string {
	switch {
	case v >= 1<<20 && v%(1<<20) == 0:
		return count(v>>20) + " MiB"
	case v >= 1<<10 && v%(1<<10) == 0:
		return count(v>>10) + " KiB"
	}
	return count(v) + " bytes"
}

// duration is a time in the largest unit that divides it.
func duration(v int64) string {
	d := time.Duration(v)
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return count(int64(d/time.Hour)) + " h"
	case d >= time.Second && d%time.Second == 0:
		return count(int64(d/time.Second)) + " s"
	}
	return count(int64(d/time.Millisecond)) + " ms"
}

// goInt and goDuration are a default as the flag package prints it.
func goInt(v int64) string      { return strconv.FormatInt(v, 10) }
func goDuration(v int64) string { return time.Duration(v).String() }
