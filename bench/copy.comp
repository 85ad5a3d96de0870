// SPDX-License-Identifier: MIT
// The copy of the bandwidth probe and of the passes' copy skeleton: reads `reads` vec4 elements of Source and writes
// `writes` elements of Destination (element i of Source to element i, zeros past the reads), a grid-stride loop so
// any size fits the dispatch limits. Reads past the writes feed a store that never happens, so they are not dropped.
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
    uint reads;  // vec4 elements read
    uint writes; // vec4 elements written
};

void main()
{
    const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    const uint count = max(reads, writes);
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride)
    {
        const vec4 value = i < reads ? source[i] : vec4(0.0);
        if (i < writes)
            destination[i] = value;
        else if (value.x == -1.0 && value.y == 0.5 && value.z == 0.25 && value.w == 0.125)
            destination[0] = value;
    }
}
