"""A fixed pure-Python workload with published Raspberry Pi timings: the n-body simulation of
the Computer Language Benchmarks Game (the Sun and the four gas giants, pairwise gravity,
time step 0.01), the commonest CPU benchmark run in CPython on a Pi.

Published times, for the whole benchmark of 5,000,000 steps (docs/performance.md names the
sources and their caveats):

- Raspberry Pi 4 Model B (1.5 GHz Cortex-A72, "performance" governor): 158.263 s, from
  "Performance Analysis of Languages on Raspberry Pi" (C. Mehta), its table of run times.
- Raspberry Pi Zero 2 W (1 GHz Cortex-A53): no CPython time of this or any other fixed
  workload was found published for it. It is bridged from the Pi 4's by the one benchmark
  published for both boards under the same OS: the single-threaded 7-zip rating of
  sbc-bench's results table (ThomasKaiser/sbc-bench, Results.md; Raspberry Pi OS Buster,
  32 bit): 1,661 for the Pi 4 at 1,500 MHz, 838 for the Zero 2. 158.263 x 1661 / 838 =
  313.7 s. An estimate: 7-zip is C, not an interpreter.

The workload here runs ``STEPS`` steps of the same simulation; times scale with the steps, so
the published times are scaled down to them. The Pi 4's run used an older CPython than ours
(3.7 or 3.9 on Raspberry Pi OS then); newer CPythons run this faster, so the factor errs on
the slow side for a Pi running the same Python as this machine.
"""

from __future__ import annotations

import math

STEPS = 100_000
PUBLISHED_STEPS = 5_000_000
PUBLISHED_SECONDS = {
    "pi4": 158.263 * STEPS / PUBLISHED_STEPS,
    "zero2w": 158.263 * 1661 / 838 * STEPS / PUBLISHED_STEPS,
}
"""Seconds for ``STEPS`` steps on each board, from the published times above."""

DAYS_PER_YEAR = 365.24
SOLAR_MASS = 4 * math.pi * math.pi
BODIES = (  # position (AU), velocity (AU a day), mass (solar masses): the benchmark's own
    ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1.0),
    ((4.84143144246472090e+00, -1.16032004402742839e+00, -1.03622044471123109e-01),
     (1.66007664274403694e-03, 7.69901118419740425e-03, -6.90460016972063023e-05),
     9.54791938424326609e-04),
    ((8.34336671824457987e+00, 4.12479856412430479e+00, -4.03523417114321381e-01),
     (-2.76742510726862411e-03, 4.99852801234917238e-03, 2.30417297573763929e-05),
     2.85885980666130812e-04),
    ((1.28943695621391310e+01, -1.51111514016986312e+01, -2.23307578892655734e-01),
     (2.96460137564761618e-03, 2.37847173959480950e-03, -2.96589568540237556e-05),
     4.36624404335156298e-05),
    ((1.53796971148509165e+01, -2.59193146099879641e+01, 1.79258772950371181e-01),
     (2.68067772490389322e-03, 1.62824170038242295e-03, -9.51592254519715870e-05),
     5.15138902046611451e-05),
)


def workload(steps: int = STEPS) -> float:
    """Advance the five bodies ``steps`` times; returns the system's energy (a check that
    the work was done, and done right: -0.169075164 at the start)."""
    bodies = [([*position], [v * DAYS_PER_YEAR for v in velocity], mass * SOLAR_MASS)
              for position, velocity, mass in BODIES]
    sun = bodies[0]
    for axis in range(3):  # the Sun moves so that the system's momentum is zero
        sun[1][axis] = -sum(v[axis] * m for _, v, m in bodies) / SOLAR_MASS
    pairs = [(bodies[i], bodies[j]) for i in range(len(bodies))
             for j in range(i + 1, len(bodies))]
    dt = 0.01
    for _ in range(steps):
        for (p1, v1, m1), (p2, v2, m2) in pairs:
            dx, dy, dz = p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]
            magnitude = dt * (dx * dx + dy * dy + dz * dz) ** -1.5
            b1, b2 = m1 * magnitude, m2 * magnitude
            v1[0] -= dx * b2
            v1[1] -= dy * b2
            v1[2] -= dz * b2
            v2[0] += dx * b1
            v2[1] += dy * b1
            v2[2] += dz * b1
        for position, velocity, _ in bodies:
            position[0] += dt * velocity[0]
            position[1] += dt * velocity[1]
            position[2] += dt * velocity[2]
    return energy(bodies)


def energy(bodies: list[tuple[list[float], list[float], float]]) -> float:
    total = 0.0
    for index, (position, velocity, mass) in enumerate(bodies):
        total += 0.5 * mass * sum(v * v for v in velocity)
        for other, _, other_mass in bodies[index + 1:]:
            total -= mass * other_mass / math.dist(position, other)
    return total
