// Copy bandwidth probe: dst = src over vec4 elements, a grid-stride loop so any size fits the dispatch limits.
#version 450

layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer Source
{
    vec4 source[];
};

layout(set = 0, binding = 1, std430) writeonly buffer Destination
{
    vec4 destination[];
};

layout(push_constant) uniform Push
{
    uint count; // vec4 elements
};

void main()
{
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride)
        destination[i] = source[i];
}
