#!/usr/bin/env python3
"""Make a recorded trace (index.tsv + samples/) whose samples are one real
sample's vmstat, meminfo and knobs with the diskstats given, DT seconds
apart: the traces the disk tests replay.

usage: mk_disk_trace.py BASE_SAMPLE OUT_DIR DT DISKSTATS_FILE...
"""
import os
import re
import sys


def main():
    base, out, dt = sys.argv[1], sys.argv[2], float(sys.argv[3])
    disks = sys.argv[4:]
    text = open(base).read()
    # the base sample's sections, the diskstats one replaced
    parts = re.split(r'^(==> /proc/\S+ <==)\n', text, flags=re.M)
    header, sections = parts[0], list(zip(parts[1::2], parts[2::2]))
    os.makedirs(os.path.join(out, 'samples'), exist_ok=True)
    mono0, real0 = 1000.0, 1796226381.0
    with open(os.path.join(out, 'index.tsv'), 'w') as idx:
        idx.write('sample\tt_rel_s\trealtime_epoch\tfile\n')
        for i, path in enumerate(disks):
            t = i * dt
            name = 'samples/%05d.txt' % i
            with open(os.path.join(out, name), 'w') as f:
                f.write('# sample=%05d t_rel=%.6f mono=%.6f realtime=%.9f\n'
                        % (i, t, mono0 + t, real0 + t))
                for head, body in sections:
                    f.write(head + '\n')
                    f.write(open(path).read() if 'diskstats' in head else body)
            idx.write('%d\t%.6f\t%.9f\t%s\n' % (i, t, real0 + t, name))


if __name__ == '__main__':
    main()
