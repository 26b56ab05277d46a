"""What counting a room message costs: in the node's memory (a single hall) and in Redis (a
cluster's nodes, `limiter.SharedLimiter`), one message at a time and with many visitors at once,
and how much of that the event loop is free for the node's other connections.

    python -m benchmarks.rate_limits [--messages 5000] [--visitors 200] [--redis redis://...]

Without --redis a throwaway redis-server is started here (Debian's `redis-server`). A message is
`RateLimits.allow_message` under the default rates (two moving-window rules: the visitor's and
the address's). CPU is this process's (`time.process_time`) and Redis's (from /proc), divided by
the count. The count is awaited (limits' asyncio storage on redis-py), so of a message's wall time
only its CPU holds the loop; the rest, Redis's answer on its way, is the other connections'.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from gamehall.server.api.guards import RateLimits, RateSettings
from gamehall.server.hall.hall import Settings
from gamehall.server.ops.limiter import Limiter, SharedLimiter


def redis_cpu() -> float:
    """CPU seconds used so far by the redis-server processes of this machine."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            text = stat.read_text()
            if "(redis-server)" in text:
                fields = text.rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@contextlib.contextmanager
def redis(url: str | None) -> Iterator[str]:
    if url is not None:
        yield url
        return
    from tests.server.live import running

    from deploy.topology import RedisServer

    with tempfile.TemporaryDirectory() as folder, running(RedisServer(Path(folder))) as server:
        yield server.url


def rates(limiter: Limiter) -> RateLimits:
    s = Settings()
    return RateLimits(limiter, RateSettings(s.rate, s.burst, s.address_factor, s.session_rate,
                                            s.room_rate, s.room_address_rate, s.flood_strikes))


async def measure(limiter: Limiter, messages: int, visitors: int) -> dict[str, float]:
    """Per message: wall and CPU one at a time, and with `visitors` sending at once."""
    door = rates(limiter)
    for n in range(50):  # warm up: connections, scripts loaded
        await door.allow_message(f"warm{n}", f"10.9.{n}.1")
    cpu, redis0, wall = time.process_time(), redis_cpu(), time.perf_counter()
    for n in range(messages):  # every visitor its own address: no refusals
        await door.allow_message(f"p{n % 1000}", f"10.0.{n % 1000 // 250}.{n % 250}")
    serial = {"wall_us": (time.perf_counter() - wall) / messages * 1e6,
              "cpu_us": (time.process_time() - cpu) / messages * 1e6,
              "redis_cpu_us": (redis_cpu() - redis0) / messages * 1e6}
    each = max(1, messages // visitors)

    async def visitor(v: int) -> None:
        for _ in range(each):
            await door.allow_message(f"q{v}", f"10.1.{v // 250}.{v % 250}")

    cpu, redis0, wall = time.process_time(), redis_cpu(), time.perf_counter()
    await asyncio.gather(*(visitor(v) for v in range(visitors)))
    done = each * visitors
    crowd = {"crowd_wall_us": (time.perf_counter() - wall) / done * 1e6,
             "crowd_cpu_us": (time.process_time() - cpu) / done * 1e6,
             "crowd_redis_cpu_us": (redis_cpu() - redis0) / done * 1e6}
    await limiter.close()
    return {**serial, **crowd}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--visitors", type=int, default=200,
                        help="visitors sending at once in the second part")
    parser.add_argument("--redis", default=None, help="a Redis to count in (default: a "
                                                      "throwaway redis-server)")
    args = parser.parse_args()
    with redis(args.redis) as url:
        rows = {"memory (one node)": asyncio.run(measure(Limiter(), args.messages,
                                                         args.visitors)),
                "Redis (cluster)": asyncio.run(measure(SharedLimiter(url), args.messages,
                                                       args.visitors))}
    print(f"{'':18} | one at a time: wall µs | CPU µs | Redis CPU µs | "
          f"{args.visitors} at once: wall µs | CPU µs | Redis CPU µs")
    for name, r in rows.items():
        print(f"{name:18} | {r['wall_us']:22.1f} | {r['cpu_us']:6.1f} | {r['redis_cpu_us']:12.1f}"
              f" | {r['crowd_wall_us']:20.1f} | {r['crowd_cpu_us']:6.1f} | "
              f"{r['crowd_redis_cpu_us']:12.1f}")


if __name__ == "__main__":
    main()
