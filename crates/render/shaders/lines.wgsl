// Overlay lines and points of constant pixel width with round caps: one instance per
// segment, expanded to a screen-space quad; a point is a segment whose ends coincide.

struct LineIn {
    // xyz: first end in world space; w: width in pixels.
    @location(0) a_width: vec4<f32>,
    // xyz: second end in world space.
    @location(1) b: vec4<f32>,
    // Linear colour with straight alpha.
    @location(2) color: vec4<f32>,
};

struct LineOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) a_px: vec2<f32>,
    @location(1) @interpolate(flat) b_px: vec2<f32>,
    @location(2) @interpolate(flat) half_width: f32,
    @location(3) @interpolate(flat) color: vec4<f32>,
};

const NEAR_W: f32 = 1e-4;

fn to_pixels(clip: vec4<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2<f32>((ndc.x * 0.5 + 0.5) * frame.viewport.x, (0.5 - ndc.y * 0.5) * frame.viewport.y);
}

@vertex
fn vs_line(@builtin(vertex_index) index: u32, l: LineIn) -> LineOut {
    var ca = frame.clip_from_world * vec4<f32>(l.a_width.xyz, 1.0);
    var cb = frame.clip_from_world * vec4<f32>(l.b.xyz, 1.0);
    var out: LineOut;
    // Clip the segment to the near plane; a segment wholly behind it collapses off screen.
    if (ca.w < NEAR_W && cb.w < NEAR_W) {
        out.clip = vec4<f32>(2.0, 2.0, 2.0, 1.0);
        return out;
    }
    if (ca.w < NEAR_W) {
        ca = mix(ca, cb, (NEAR_W - ca.w) / (cb.w - ca.w));
    } else if (cb.w < NEAR_W) {
        cb = mix(cb, ca, (NEAR_W - cb.w) / (ca.w - cb.w));
    }
    let pa = to_pixels(ca);
    let pb = to_pixels(cb);
    let along = pb - pa;
    let len = length(along);
    var dir = vec2<f32>(1.0, 0.0);
    if (len > 1e-4) {
        dir = along / len;
    }
    let side = vec2<f32>(-dir.y, dir.x);
    let half_width = max(l.a_width.w * 0.5, 0.5);
    // One pixel of margin for the anti-aliased edge.
    let reach = half_width + 1.0;
    let corner_end = array<f32, 6>(0.0, 1.0, 1.0, 0.0, 1.0, 0.0);
    let corner_side = array<f32, 6>(-1.0, -1.0, 1.0, -1.0, 1.0, 1.0);
    let at_end = corner_end[index];
    let base = mix(pa, pb, at_end);
    let px = base + dir * reach * (at_end * 2.0 - 1.0) + side * reach * corner_side[index];
    let depth_clip = mix(ca, cb, at_end);
    let ndc = vec2<f32>(px.x * frame.viewport.z * 2.0 - 1.0, 1.0 - px.y * frame.viewport.w * 2.0);
    out.clip = vec4<f32>(ndc, clamp(depth_clip.z / depth_clip.w, 0.0, 1.0), 1.0);
    out.a_px = pa;
    out.b_px = pb;
    out.half_width = half_width;
    out.color = l.color;
    return out;
}

@fragment
fn fs_line(in: LineOut) -> @location(0) vec4<f32> {
    let p = in.clip.xy;
    let ab = in.b_px - in.a_px;
    let t = clamp(dot(p - in.a_px, ab) / max(dot(ab, ab), 1e-6), 0.0, 1.0);
    let d = distance(p, in.a_px + ab * t);
    let coverage = clamp(in.half_width - d + 0.5, 0.0, 1.0);
    if (coverage <= 0.0) {
        discard;
    }
    return vec4<f32>(in.color.rgb, in.color.a * coverage);
}
