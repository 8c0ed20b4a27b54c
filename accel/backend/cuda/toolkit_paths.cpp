#include "accel/backend/cuda/toolkit_paths.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

namespace accel::cuda {

std::vector<std::string> toolkit_roots() {
  std::vector<std::string> roots;
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  return roots;
}

std::vector<std::string> toolkit_library_dirs() {
  std::vector<std::string> dirs;
  for (const auto& root : toolkit_roots())
    for (const char* sub : {"lib64", "lib", "targets/x86_64-linux/lib", "targets/sbsa-linux/lib"})
      dirs.push_back(root + "/" + sub);
  return dirs;
}

std::vector<std::string> existing_libraries(const std::vector<std::string>& dirs,
                                            const std::vector<std::string>& sonames) {
  std::vector<std::string> found;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) continue;
    for (const auto& so : sonames)
      if (std::filesystem::exists(dir + "/" + so, ec)) found.push_back(dir + "/" + so);
  }
  return found;
}

void SearchDirs::add(const std::vector<std::string>& dirs) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& d : dirs)
    if (std::find(dirs_.begin(), dirs_.end(), d) == dirs_.end()) dirs_.push_back(d);
}

std::vector<std::string> SearchDirs::with_toolkit() const {
  std::vector<std::string> dirs = toolkit_library_dirs();
  std::lock_guard<std::mutex> lock(mutex_);
  dirs.insert(dirs.end(), dirs_.begin(), dirs_.end());
  return dirs;
}

std::vector<std::string> library_candidates(const std::optional<std::string>& override_path,
                                            const std::vector<std::string>& sonames,
                                            const SearchDirs& dirs) {
  std::vector<std::string> c;
  if (override_path) {
    std::error_code ec;
    if (std::filesystem::is_directory(*override_path, ec))
      for (const auto& so : sonames) c.push_back(*override_path + "/" + so);
    else
      c.push_back(*override_path);
  }
  for (const auto& path : existing_libraries(dirs.with_toolkit(), sonames)) c.push_back(path);
  c.insert(c.end(), sonames.begin(), sonames.end());
  return c;
}

}  // namespace accel::cuda
