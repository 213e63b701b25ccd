package storage

import (
	"testing"
	"time"
)

func TestParseCPU(t *testing.T) {
	for _, tt := range []struct {
		info string
		want time.Duration
		ok   bool
	}{
		{"# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.25\r\nused_cpu_sys_children:9\r\nused_cpu_user_children:4\r\n", 3750 * time.Millisecond, true},
		{"used_cpu_user:0\nused_cpu_sys:0.000001\n", time.Microsecond, true},
		{"used_cpu_sys:1\n", 0, false},                  // user missing
		{"used_cpu_sys:1\nused_cpu_user:x\n", 0, false}, // malformed
		{"used_cpu_sys:-1\nused_cpu_user:1\n", 0, false},
		{"used_cpu_sys:NaN\nused_cpu_user:1\n", 0, false},
		{"used_cpu_sys:1e300\nused_cpu_user:1\n", 0, false},
		{"garbage", 0, false},
		{"", 0, false},
	} {
		got, ok := parseCPU(tt.info)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseCPU(%q) = %v, %v; want %v, %v", tt.info, got, ok, tt.want, tt.ok)
		}
	}
}

func TestGlobEscape(t *testing.T) {
	if got, want := globEscape(`a*b?c[d]e\f:`), `a\*b\?c\[d\]e\\f:`; got != want {
		t.Errorf("globEscape = %q, want %q", got, want)
	}
}
