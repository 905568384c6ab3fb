#!/usr/bin/env python3
"""Make a recorded trace (index.tsv + samples/) of one real sample whose
dirty level goes as told: N samples DT seconds apart, the thresholds of
dirty_bytes 256M / dirty_background_bytes 128M (freerun 49152 pages),
nr_dirty from START pages, RISE pages a second more, and the kernel's
dirtied and written counters at DIRTIED and WRITTEN pages a second.

usage: mk_dirty_trace.py BASE_SAMPLE OUT_DIR DT N START RISE DIRTIED WRITTEN
"""
import os
import re
import sys


def main():
    base, out = sys.argv[1], sys.argv[2]
    dt, n = float(sys.argv[3]), int(sys.argv[4])
    start, rise, dirtied, written = (float(x) for x in sys.argv[5:9])
    text = open(base).read()
    os.makedirs(os.path.join(out, 'samples'), exist_ok=True)
    mono0, real0 = 1000.0, 1796226381.0
    body = text.split('\n', 1)[1]   # without its '# sample=' line
    with open(os.path.join(out, 'index.tsv'), 'w') as idx:
        idx.write('sample\tt_rel_s\trealtime_epoch\tfile\n')
        for i in range(n):
            t = i * dt
            pages = int(start + rise * t)
            vals = {'nr_dirty': pages, 'nr_writeback': 0,
                    'nr_dirty_threshold': 65536, 'nr_dirty_background_threshold': 32768,
                    'nr_dirtied': int(42111093 + dirtied * t), 'nr_written': int(36264672 + written * t)}
            s = body
            for k, v in vals.items():
                s = re.sub(r'^%s \d+$' % k, '%s %d' % (k, v), s, flags=re.M)
            s = re.sub(r'^Dirty: +\d+ kB$', 'Dirty:  %d kB' % (pages * 4), s, flags=re.M)
            s = re.sub(r'^Writeback: +\d+ kB$', 'Writeback:  0 kB', s, flags=re.M)
            name = 'samples/%05d.txt' % i
            with open(os.path.join(out, name), 'w') as f:
                f.write('# sample=%05d t_rel=%.6f mono=%.6f realtime=%.9f\n'
                        % (i, t, mono0 + t, real0 + t))
                f.write(s)
            idx.write('%d\t%.6f\t%.9f\t%s\n' % (i, t, real0 + t, name))


if __name__ == '__main__':
    main()
