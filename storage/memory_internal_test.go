package storage

import "testing"

func TestParseMemoryInfo(t *testing.T) {
	for _, tt := range []struct {
		info string
		want MemoryPolicy
		ok   bool
	}{
		{"# Memory\r\nused_memory:1000\r\nmaxmemory:8388608\r\nmaxmemory_human:8.00M\r\nmaxmemory_policy:allkeys-lru\r\n",
			MemoryPolicy{MaxMemory: 8388608, Policy: "allkeys-lru"}, true},
		{"maxmemory:0\nmaxmemory_policy:noeviction\n", MemoryPolicy{Policy: "noeviction"}, true},
		{"maxmemory:0\n", MemoryPolicy{}, false},                               // policy missing
		{"maxmemory_policy:noeviction\n", MemoryPolicy{}, false},               // limit missing
		{"maxmemory:-5\nmaxmemory_policy:noeviction\n", MemoryPolicy{}, false}, // malformed
		{"maxmemory:x\nmaxmemory_policy:noeviction\n", MemoryPolicy{}, false},
		{"", MemoryPolicy{}, false},
	} {
		got, ok := parseMemoryInfo(tt.info)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("parseMemoryInfo(%q) = %+v, %v; want %+v, %v", tt.info, got, ok, tt.want, tt.ok)
		}
	}
}
