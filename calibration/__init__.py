"""Camera intrinsics, the table plane from ArUco markers, marker sheets and profiles.

Modules, one idea each: ``errors`` (typed errors), ``images`` (grey conversion; image
files are read by ``tableref.vision.imageio``), ``patterns`` (chessboard / ChArUco specs and detection),
``intrinsics`` (the record and camera calibration), ``markers`` (ArUco detection, pure),
``layout`` (marker positions in table mm), ``table`` (the image <-> table homography),
``rectify`` (the top-down view), ``sheet`` and ``pdf`` (the printable marker sheet),
``profile`` (the versioned JSON profile). See docs/calibration.md.
"""
