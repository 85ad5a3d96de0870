// SPDX-License-Identifier: MIT
// The table of settings at the edges of their rules and ranges (setting_edges.txt), which the CLI's, the viewer's
// and the Python module's tests each run.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fftb::test
{

/// One row: settings as key=value words, and the text their refusal contains (empty: they are accepted).
struct SettingEdge
{
    std::string settings; ///< the row's settings as written, for messages
    std::vector<std::string> keyValues;
    std::string refusal;
};

/// The rows of FFTBLOOM_SETTING_EDGES (tests/support/setting_edges.txt); throws when it cannot be read.
inline std::vector<SettingEdge> settingEdges()
{
    std::ifstream in(FFTBLOOM_SETTING_EDGES);
    if (!in)
        throw std::runtime_error(std::string(FFTBLOOM_SETTING_EDGES) + ": cannot be read");
    std::vector<SettingEdge> rows;
    for (std::string line; std::getline(in, line);)
    {
        const size_t tab = line.find('\t');
        if (line.empty() || line[0] == '#' || tab == std::string::npos)
            continue;
        SettingEdge row{line.substr(0, tab), {}, line.substr(tab + 1)};
        if (row.refusal == "ok")
            row.refusal.clear();
        std::istringstream words(row.settings);
        for (std::string word; words >> word;)
            row.keyValues.push_back(word);
        rows.push_back(std::move(row));
    }
    return rows;
}

} // namespace fftb::test
