"""Camera intrinsics, the table plane from ArUco markers, marker sheets and profiles."""
