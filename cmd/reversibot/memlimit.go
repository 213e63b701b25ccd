package main

import (
	"io/fs"
	"log/slog"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
)

// The Go runtime's soft memory limit (debug.SetMemoryLimit): near it the garbage collector
// works harder rather than let the heap grow, which GOGC=400 (main) would otherwise let reach
// five times the live heap. GOMEMLIMIT, when set, is the operator's and is kept. Otherwise the
// bot takes a share of its container's memory limit (cgroup v2 memory.max, or v1
// memory.limit_in_bytes, the tightest of its cgroup and those above it), leaving the rest to
// what the runtime does not count (the binary, thread stacks outside the heap, the kernel's
// buffers); without a container limit, defaultMemoryLimit.

const (
	// memoryLimitShare is the share of the container's limit the bot sets as its own.
	memoryLimitShare = 0.85
	// defaultMemoryLimit is the limit without GOMEMLIMIT or a container limit: the bot's live
	// heap is a few tens of megabytes with the pictures it keeps (bot.DefaultPictureCache),
	// so this only stops garbage from piling up.
	defaultMemoryLimit = 256 << 20
	// unlimitedCgroup is the least value a cgroup v1 file holds for "no limit"
	// (9223372036854771712 on 4 KB pages): anything above it is no limit.
	unlimitedCgroup = 1 << 60
)

// Where a memory limit came from.
const (
	memFromEnv      = "GOMEMLIMIT"
	memFromCgroupV2 = "cgroup v2 memory.max"
	memFromCgroupV1 = "cgroup v1 memory.limit_in_bytes"
	memFromDefault  = "default"
)

// memoryLimit is the soft memory limit the process runs under.
type memoryLimit struct {
	Bytes     int64  // the limit; for GOMEMLIMIT, what the runtime read from it (once applied)
	Source    string // memFrom…
	Container int64  // the container's limit it is a share of; 0 when it is not
}

// memoryLimitFor chooses the memory limit from the environment and the cgroup files of fsys
// (the root file system in production).
func memoryLimitFor(getenv func(string) string, fsys fs.FS) memoryLimit {
	if strings.TrimSpace(getenv("GOMEMLIMIT")) != "" {
		return memoryLimit{Source: memFromEnv}
	}
	if limit, src := containerMemory(fsys); limit > 0 {
		return memoryLimit{Bytes: int64(float64(limit) * memoryLimitShare), Source: src, Container: limit}
	}
	return memoryLimit{Bytes: defaultMemoryLimit, Source: memFromDefault}
}

// apply sets the limit in the runtime (GOMEMLIMIT's is already set: it reads it back).
func (m memoryLimit) apply() memoryLimit {
	if m.Source == memFromEnv {
		m.Bytes = debug.SetMemoryLimit(-1)
		return m
	}
	debug.SetMemoryLimit(m.Bytes)
	return m
}

// log tells the operator the limit at start-up.
func (m memoryLimit) log(log *slog.Logger) {
	if m.Source == "" {
		return
	}
	args := []any{"mb", m.Bytes >> 20, "source", m.Source}
	if m.Container > 0 {
		args = append(args, "container_mb", m.Container>>20, "share", memoryLimitShare)
	}
	log.Info("Go memory limit", args...)
}

// containerMemory returns the tightest memory limit of the process's cgroups in fsys, and
// which kind of file gave it; 0 when there is none.
func containerMemory(fsys fs.FS) (int64, string) {
	raw, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, ""
	}
	var best int64
	var src string
	consider := func(limit int64, from string) {
		if limit > 0 && (best == 0 || limit < best) {
			best, src = limit, from
		}
	}
	for line := range strings.Lines(string(raw)) {
		// hierarchy-ID:controller-list:cgroup-path
		f := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(f) != 3 {
			continue
		}
		switch {
		case f[0] == "0" && f[1] == "":
			consider(walkCgroup(fsys, "sys/fs/cgroup", f[2], "memory.max"), memFromCgroupV2)
		case hasController(f[1], "memory"):
			consider(walkCgroup(fsys, "sys/fs/cgroup/memory", f[2], "memory.limit_in_bytes"), memFromCgroupV1)
		}
	}
	return best, src
}

// hasController reports whether a comma-separated controller list names c.
func hasController(list, c string) bool {
	for name := range strings.SplitSeq(list, ",") {
		if name == c {
			return true
		}
	}
	return false
}

// walkCgroup returns the tightest limit in file of the cgroup dir (a path as /proc/self/cgroup
// gives it) under root and of every cgroup above it up to root; 0 when none of them has one.
// Inside a container the process's own directory is often not mounted and root is the
// container's cgroup: the walk reads that too.
func walkCgroup(fsys fs.FS, root, dir, file string) int64 {
	var best int64
	p := path.Clean("/" + dir)
	for {
		name := path.Join(root, p, file)
		if raw, err := fs.ReadFile(fsys, name); err == nil {
			if v, ok := parseCgroupLimit(string(raw)); ok && (best == 0 || v < best) {
				best = v
			}
		}
		if p == "/" {
			return best
		}
		p = path.Dir(p)
	}
}

// parseCgroupLimit reads a memory limit file: bytes, or "max" (v2) or a value of at least
// unlimitedCgroup (v1) for none (ok false).
func parseCgroupLimit(s string) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 || v >= unlimitedCgroup {
		return 0, false
	}
	return v, true
}
