"""A phone camera over the table: the homography from the table plane (mm) to the image.

World frame: x right, y towards the bottom seat, z into the table (so the
frame is right-handed and the table is z = 0). The camera stands back from the
table by ``tilt`` (0 = straight down, up to ~40 degrees), turned by ``yaw``
about the vertical, rolled a little, with a phone-like field of view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

Mat = NDArray[np.float64]


@dataclass(frozen=True)
class Camera:
    homography: Mat     # 3x3, table mm -> image px
    tilt_deg: float
    yaw_deg: float
    roll_deg: float
    hfov_deg: float
    distance_mm: float

    def project(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        return project(self.homography, pts)


def project(h: Mat, pts: NDArray[np.float64]) -> NDArray[np.float64]:
    """Apply a homography to an (n, 2) array of points."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = p @ h[:, :2].T + h[:, 2]
    return np.asarray(q[:, :2] / q[:, 2:3])


def look_at(target: tuple[float, float], distance: float, tilt: float, yaw: float, roll: float,
            focal: float, cx: float, cy: float) -> Mat:
    """Homography of a pinhole camera ``distance`` mm from ``target``, tilted ``tilt`` rad from vertical."""
    back = np.array([math.sin(yaw), math.cos(yaw), 0.0])
    down = np.array([0, 0, -1.0])
    centre = np.array([target[0], target[1], 0.0]) + distance * (math.sin(tilt) * back + math.cos(tilt) * down)
    f = np.array([target[0], target[1], 0.0]) - centre
    f /= np.linalg.norm(f)
    r = np.array([math.cos(yaw), -math.sin(yaw), 0.0])
    d = np.cross(f, r)
    cr, sr = math.cos(roll), math.sin(roll)
    r, d = cr * r + sr * d, -sr * r + cr * d
    rot = np.stack([r, d, f])
    k = np.array([[focal, 0, cx], [0, focal, cy], [0, 0, 1.0]])
    t = -rot @ centre
    h = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
    return np.asarray(h / h[2, 2])


def frame_table(points: NDArray[np.float64], width: int, height: int,
                rng: np.random.Generator, max_tilt_deg: float = 40.0,
                tilt_range: tuple[float, float] | None = None) -> Camera:
    """A random phone camera that sees all ``points`` (n, 2 in table mm: the cards' corners); ``tilt_range``
    (degrees): the tilt drawn evenly from it instead of mostly near straight down."""
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    if tilt_range is None:
        tilt = math.radians(min(max_tilt_deg, abs(rng.normal(0, max_tilt_deg * 0.55))))
    else:
        tilt = math.radians(rng.uniform(*tilt_range))
    yaw = rng.normal(0, math.radians(12))
    roll = rng.normal(0, math.radians(2.5))
    hfov = math.radians(rng.uniform(55, 75))
    focal = (width / 2) / math.tan(hfov / 2)
    target = ((x0 + x1) / 2 + rng.normal(0, 0.04 * (x1 - x0)), (y0 + y1) / 2 + rng.normal(0, 0.04 * (y1 - y0)))
    span = max((x1 - x0) / width, (y1 - y0) / height)
    fill = rng.uniform(0.8, 1.0)
    distance = focal * span / fill
    corners = points
    h = look_at(target, distance, tilt, yaw, roll, focal, width / 2, height / 2)
    for _ in range(3):
        pts = project(h, corners)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        distance *= max((hi[0] - lo[0]) / (width * fill), (hi[1] - lo[1]) / (height * fill))
        h = look_at(target, distance, tilt, yaw, roll, focal, width / 2, height / 2)
    # Centre the layout: a shifted principal point is a crop of a larger sensor.
    pts = project(h, corners)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    shift = np.array([width / 2, height / 2]) - (lo + hi) / 2 + rng.normal(0, 0.02, 2) * (width, height)
    h = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1.0]]) @ h
    # Whatever perspective did to the fit, shrink about the centre until every point is in the frame.
    pts = project(h, corners)
    margin = 0.01 * min(width, height)
    half = np.array([width / 2 - margin, height / 2 - margin])
    need = float(np.max(np.abs(pts - (width / 2, height / 2)) / half))
    if need > 1:
        s = 1 / need
        h = np.array([[s, 0, (1 - s) * width / 2], [0, s, (1 - s) * height / 2], [0, 0, 1.0]]) @ h
    return Camera(homography=np.asarray(h / h[2, 2]), tilt_deg=math.degrees(tilt), yaw_deg=math.degrees(yaw),
                  roll_deg=math.degrees(roll), hfov_deg=math.degrees(hfov), distance_mm=float(distance))
