package main

import (
	"testing"
	"testing/fstest"
)

// TestMemoryLimitFor: GOMEMLIMIT wins; otherwise the bot takes memoryLimitShare of the tightest
// limit of its cgroup and those above it (v2 or v1), and without one defaultMemoryLimit.
func TestMemoryLimitFor(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	const gib = 1 << 30
	for _, tt := range []struct {
		name      string
		env       string
		fs        fstest.MapFS
		container int64
		source    string
	}{
		{"no cgroup files", "", fstest.MapFS{}, 0, memFromDefault},
		{"GOMEMLIMIT set", "300MiB", fstest.MapFS{
			"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("1073741824\n"),
		}, 0, memFromEnv},
		{"v2, namespaced container", "", fstest.MapFS{
			"proc/self/cgroup": file("0::/\n"), "sys/fs/cgroup/memory.max": file("536870912\n"),
		}, gib / 2, memFromCgroupV2},
		{"v2, a parent's limit is tighter", "", fstest.MapFS{
			"proc/self/cgroup":                          file("0::/kubepods/pod1/c1\n"),
			"sys/fs/cgroup/kubepods/pod1/c1/memory.max": file("max\n"),
			"sys/fs/cgroup/kubepods/pod1/memory.max":    file("1073741824\n"),
			"sys/fs/cgroup/kubepods/memory.max":         file("4294967296\n"),
		}, gib, memFromCgroupV2},
		{"v2 without a limit", "", fstest.MapFS{
			"proc/self/cgroup": file("0::/user.slice\n"), "sys/fs/cgroup/memory.max": file("max\n"),
		}, 0, memFromDefault},
		{"v1, own cgroup not mounted", "", fstest.MapFS{
			"proc/self/cgroup":                           file("5:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n0::/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("268435456\n"),
		}, gib / 4, memFromCgroupV1},
		{"v1 without a limit (this kind of VM)", "", fstest.MapFS{
			"proc/self/cgroup":                           file("4:memory:/process_api/eddf8c3a\n0::/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 0, memFromDefault},
		{"garbage in the files", "", fstest.MapFS{
			"proc/self/cgroup":                           file("nonsense\n4:memory:/../../etc\n0::\n:::\n"),
			"sys/fs/cgroup/memory.max":                   file("-5\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("12abc\n"),
		}, 0, memFromDefault},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := memoryLimitFor(func(k string) string {
				if k == "GOMEMLIMIT" {
					return tt.env
				}
				return ""
			}, tt.fs)
			if got.Source != tt.source || got.Container != tt.container {
				t.Fatalf("memoryLimitFor = %+v; want source %q, container %d", got, tt.source, tt.container)
			}
			switch {
			case tt.container > 0 && got.Bytes != int64(float64(tt.container)*memoryLimitShare):
				t.Errorf("limit %d of a container's %d; want %.2f of it", got.Bytes, tt.container, memoryLimitShare)
			case tt.source == memFromDefault && got.Bytes != defaultMemoryLimit:
				t.Errorf("limit %d; want the default %d", got.Bytes, defaultMemoryLimit)
			}
		})
	}
}
