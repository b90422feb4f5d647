package script

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ReadFile reads the script in one file, bounded (ReadBounded). A script
// that does not name itself is named after its file (BaseName). Errors
// start with the path; a *Error inside says the line.
func ReadFile(path string) (Script, error) {
	data, err := ReadBounded(path, "a script")
	if err != nil {
		return Script{}, err
	}
	s, err := Parse(data, BaseName(path))
	if err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ReadBounded reads a file of at most MaxBytes, bounded before it is
// read: one over is refused from its size (what names it in the error:
// "a script"), and anything but a regular file (a directory, or a pipe
// that would block) is refused unopened. Errors start with the path.
func ReadBounded(path, what string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, unreadable(path, err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	tooBig := func(size float64) error {
		return fmt.Errorf("%s: %w", path, &Error{Reason: fmt.Sprintf("the file is %.1f MiB, over the %d MiB %s may be", size/(1<<20), MaxBytes>>20, what)})
	}
	if info.Size() > MaxBytes {
		return nil, tooBig(float64(info.Size()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, unreadable(path, err)
	}
	defer f.Close()
	// Bounded again: the file may have grown since it was measured.
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, unreadable(path, err)
	}
	if len(data) > MaxBytes {
		return nil, tooBig(float64(len(data)))
	}
	return data, nil
}

// unreadable words an I/O error once, with the path in front (an
// *fs.PathError would repeat it after its operation's name).
func unreadable(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot read it: %w", path, err)
}

// BaseName is what a file's script is called when it does not say: the
// file's name without its extension.
func BaseName(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}

// Paths lists a directory's scripts: its .json and .jsonl files, not its
// subdirectories', in name order. A directory without one is an error,
// since whoever named it expected scripts there.
func Paths(dir string) ([]string, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, unreadable(dir, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, unreadable(dir, err)
	}
	var paths []string
	for _, e := range entries {
		if ext := filepath.Ext(e.Name()); !e.IsDir() && (ext == ".json" || ext == ".jsonl") {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no .json or .jsonl script in it", dir)
	}
	slices.Sort(paths)
	return paths, nil
}
