// The backdrop: a vertical gradient behind everything, a ground disc with an anti-aliased
// metric grid that fades at its edge, and soft contact shadows under bodies.

struct BackgroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_background(@builtin(vertex_index) index: u32) -> BackgroundOut {
    // One triangle covering the target.
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: BackgroundOut;
    out.clip = vec4<f32>(uv * 2.0 - 1.0, 1.0, 1.0);
    out.uv = uv;
    return out;
}

@fragment
fn fs_background(in: BackgroundOut) -> @location(0) vec4<f32> {
    let top = vec3<f32>(0.055, 0.062, 0.075);
    let bottom = vec3<f32>(0.17, 0.175, 0.185);
    return vec4<f32>(mix(bottom, top, clamp(in.uv.y, 0.0, 1.0)), 1.0);
}

struct GroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_ground(@builtin(vertex_index) index: u32) -> GroundOut {
    let corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[index];
    let radius = frame.ground.z;
    let world = vec3<f32>(
        frame.ground_center.x + c.x * radius,
        frame.ground.x,
        frame.ground_center.z + c.y * radius,
    );
    var out: GroundOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

// 1 on a grid line of the given spacing, 0 between lines, anti-aliased over a pixel.
fn grid_line(coord: vec2<f32>, width_px: f32) -> f32 {
    let d = abs(fract(coord - 0.5) - 0.5) / max(fwidth(coord), vec2<f32>(1e-6));
    return 1.0 - clamp(min(d.x, d.y) - width_px * 0.5 + 0.5, 0.0, 1.0);
}

@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
    let cell = frame.ground.y;
    let major = cell * frame.ground.w;
    let minor_line = grid_line(in.world.xz / cell, 1.0);
    let major_line = grid_line(in.world.xz / major, 1.5);
    // Fine lines vanish where they would crowd into a moiré.
    let crowding = clamp(length(fwidth(in.world.xz / cell)) * 2.0, 0.0, 1.0);
    var color = vec3<f32>(0.2, 0.205, 0.215);
    color = mix(color, vec3<f32>(0.29, 0.3, 0.31), minor_line * (1.0 - crowding));
    color = mix(color, vec3<f32>(0.4, 0.41, 0.43), major_line);
    let r = distance(in.world.xz, frame.ground_center.xz) / frame.ground.z;
    let alpha = 1.0 - smoothstep(0.55, 1.0, r);
    return vec4<f32>(color, alpha);
}

struct ShadowIn {
    // xy: centre on the ground (world x, z); zw: the ellipse's first half axis (x, z).
    @location(0) center_axis: vec4<f32>,
    // xy: the second half axis (x, z); z: opacity.
    @location(1) axis_opacity: vec4<f32>,
};

struct ShadowOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) local: vec2<f32>,
    @location(1) opacity: f32,
};

@vertex
fn vs_shadow(@builtin(vertex_index) index: u32, s: ShadowIn) -> ShadowOut {
    let corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[index];
    let xz = s.center_axis.xy + c.x * s.center_axis.zw + c.y * s.axis_opacity.xy;
    // Lifted a hair above the ground so the depth test keeps it over the grid.
    let world = vec3<f32>(xz.x, frame.ground.x + 0.002, xz.y);
    var out: ShadowOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.local = c;
    out.opacity = s.axis_opacity.z;
    return out;
}

@fragment
fn fs_shadow(in: ShadowOut) -> @location(0) vec4<f32> {
    let r = length(in.local);
    let falloff = 1.0 - smoothstep(0.2, 1.0, r);
    return vec4<f32>(0.0, 0.0, 0.0, in.opacity * falloff * falloff);
}
